/* fuzz/standalone.c: a main() for builds without libFuzzer. Replays every
 * file named on the command line (directories: every file inside, sorted,
 * recursively; dot files skipped) through LLVMFuzzerTestOneInput once. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;

/* Read PATH whole and run it. Returns 0, or -1 if it cannot be read. */
static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "standalone: cannot open %s: %s\n", path, strerror(errno));
        return -1;
    }
    size_t cap = 4096, n = 0, r;
    uint8_t *buf = malloc(cap);
    while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    int bad = ferror(f) || !buf;
    fclose(f);
    if (bad) {
        free(buf);
        fprintf(stderr, "standalone: cannot read %s\n", path);
        return -1;
    }
    /* an exact-size copy, so a sanitizer sees reads past the input */
    uint8_t *in = malloc(n ? n : 1);
    if (!in) {
        free(buf);
        return -1;
    }
    memcpy(in, buf, n);
    free(buf);
    if (getenv("FUZZ_VERBOSE"))
        fprintf(stderr, "standalone: %s (%zu bytes)\n", path, n);
    LLVMFuzzerTestOneInput(in, n);
    free(in);
    replayed++;
    /* TAP: one result per replayed input (an invariant failure aborts
     * before its line, so the run fails) */
    printf("ok %lu - %s\n", replayed, path);
    fflush(stdout);
    return 0;
}

/* Skip "." entries and dot files (.gitkeep). */
static int visible(const struct dirent *d)
{
    return d->d_name[0] != '.';
}

/* Run PATH: a file, or a directory walked in name order. */
static int run_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "standalone: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    struct dirent **list = NULL;
    int n = scandir(path, &list, visible, alphasort);
    if (n < 0) {
        fprintf(stderr, "standalone: cannot list %s: %s\n", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (int i = 0; i < n; i++) {
        size_t len = strlen(path) + strlen(list[i]->d_name) + 2;
        char *sub = malloc(len);
        if (sub) {
            snprintf(sub, len, "%s/%s", path, list[i]->d_name);
            if (run_path(sub))
                rc = -1;
            free(sub);
        } else {
            rc = -1;
        }
        free(list[i]);
    }
    free(list);
    return rc;
}

/* Replay every argument; libFuzzer-style "-flag" arguments are ignored so
 * the same command lines work with both builds. */
int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-')
            continue;
        if (run_path(argv[i]))
            rc = 1;
    }
    if (rc)
        printf("not ok %lu - some corpus paths could not be read\n", ++replayed);
    printf("# standalone: replayed %lu inputs\n1..%lu\n", replayed, replayed);
    return rc;
}
