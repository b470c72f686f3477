/* test/dwarf/progs/threads.c: three threads besides main, each waiting
 * with its own locals and its own thread-local tl, when main reaches
 * probe(): check_vars.py reads every thread of the core GDB writes there
 * (dwexpr vars --thread TID). */
#include <pthread.h>
#include <unistd.h>

static pthread_barrier_t ready;
__thread int tl = 7;
volatile int sink;

__attribute__((noinline)) void probe(int id)
{
    sink = id;
}

__attribute__((noinline)) void *worker(void *arg)
{
    int id = (int)(long)arg;
    int mine = 100 + id;
    tl = 1000 + id;
    sink = mine;
    pthread_barrier_wait(&ready);
    for (;;)
        pause();
    return NULL;
}

int main(void)
{
    pthread_t t[3];
    pthread_barrier_init(&ready, NULL, 4);
    for (long i = 0; i < 3; i++)
        pthread_create(&t[i], NULL, worker, (void *)(i + 1));
    pthread_barrier_wait(&ready);
    probe(0);
    return 0;
}
