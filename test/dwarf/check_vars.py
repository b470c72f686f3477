#!/usr/bin/env python3
"""test/dwarf/check_vars.py: `dwexpr vars` (contract "dwexpr vars") on
its own: every usage and input error, the live-process path on a program
that stops itself (no debugger needed), and, when GDB is installed, a
core GDB writes at the probe of progs/vars.c: the contract's JSON shape,
inline frames, known values (parameters, entry values, TLS, globals,
bit-fields as members) and the human output; and a process stopped in a
shared library of its own, read with the library's DWARF, its separate
debug file, or none when that cannot be opened; thread-local variables
of the executable and of two shared libraries (cores and stopped
processes, two threads) against GDB's, and a dlopen'ed library's that
the thread has not allocated; a Rust program's names and enums (when
rustc is installed). TAP output."""
import argparse
import json
import os
import re
import shutil
import signal
import struct
import subprocess
import sys
import time

N = 0
FAILED = 0


def ok(cond, what, detail=''):
    global N, FAILED
    N += 1
    print('%s %d - %s' % ('ok' if cond else 'not ok', N, what))
    if not cond:
        FAILED += 1
        for line in str(detail).splitlines()[:20]:
            print('#   ' + line)


# Where `dwexpr vars` of a process or core looks for separate debug files
# when a check does not say (--debug-dir): an empty directory (set in
# main), so that libc's debug file (libc6-dbg: about a second to open,
# four in the sanitizer tree) is not read for frames past main that no
# check looks at, and the results do not depend on whether it is
# installed. The checks of debug files pass their own --debug-dir (the
# default directory explicitly where they mean it).
DWEXPR = None
NO_DEBUG_DIRS = None


def run(cmd, **kw):
    if (NO_DEBUG_DIRS and cmd[:2] == [DWEXPR, 'vars'] and '--debug-dir' not in cmd and
            ('--core' in cmd or '--pid' in cmd)):
        cmd = cmd[:2] + ['--debug-dir', NO_DEBUG_DIRS] + cmd[2:]
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=120, **kw)


def core_at_probe(gdb, exe, cwd, probe='probe'):
    """A core of EXE that GDB writes at PROBE(): its path (EXE.core) and
    GDB's run (for its messages)."""
    core = exe + '.core'
    if os.path.exists(core):
        os.unlink(core)
    g = run([gdb, '-nx', '-batch', '-iex', 'set debuginfod enabled off', '-ex', 'break ' + probe,
             '-ex', 'run', '-ex', 'gcore ' + core, '-ex', 'kill', exe], cwd=cwd)
    return core, g


def built_core(gdb, src, work, prog, flags, name, probe='probe', sources=None):
    """progs/PROG (or the progs/ files SOURCES, PROG naming them in the
    check) built by gcc -g FLAGS into WORK/NAME (a check), and a core GDB
    writes at PROBE(): (executable, core), or None after a failing
    check."""
    exe = os.path.join(work, name)
    files = [os.path.join(src, f) for f in (sources or [prog])]
    bld = run(['gcc', '-g'] + flags + ['-o', exe] + files)
    ok(bld.returncode == 0, 'build %s %s' % (prog, ' '.join(flags)), bld.stderr)
    if bld.returncode:
        return None
    core, g = core_at_probe(gdb, exe, work, probe)
    if not os.path.exists(core):
        ok(False, '%s: gcore' % prog, g.stderr)
        return None
    return exe, core


def usage_errors(dw, binary):
    """Each bad command line: exit status 2 and a message saying why."""
    cases = [
        ([], 'give one of --core CORE and --pid PID'),
        (['--core', 'c', '--pid', '1', binary], 'give one of --core CORE and --pid PID'),
        (['--core', 'c'], 'no binary given'),
        (['--pid', 'abc', binary], 'expected a positive number after --pid'),
        (['--pid', '0', binary], 'expected a positive number after --pid'),
        (['--max', '0', '--pid', '1', binary], 'expected a positive number after --max'),
        (['--core'], 'expected a file after --core'),
        (['--entry-values', 'often', '--pid', '1', binary], 'unknown --entry-values often'),
        (['--frobnicate', '--pid', '1', binary], 'unknown option --frobnicate'),
        (['--pid', '1', binary, binary], 'more than one binary'),
        (['--pid', '1', binary, '--debug-dir'], 'expected directories after --debug-dir'),
    ]
    for args, msg in cases:
        r = run(dw + ['vars'] + args)
        ok(r.returncode == 2 and msg in r.stderr, 'usage: %s -> %s' % (' '.join(args) or '(none)', msg),
           'rc %d, stderr %r' % (r.returncode, r.stderr))
    # with --json (first: it must not become an option's value) each is
    # also the contract's one JSON object on stdout, class usage
    for args, msg in cases:
        json_usage(dw + ['vars', '--json'] + args, msg)
    json_usage(dw + ['vars', '--frobnicate', '--json', '--pid', '1', binary],
               'unknown option --frobnicate')
    r = run(dw + ['vars', '--frobnicate', '--pid', '1', binary])
    ok(r.returncode == 2 and not r.stdout, 'usage without --json: nothing on stdout', r.stdout)
    # dwexpr locs (its variable entries are vars'): the same rule
    for args, msg in [([], 'no binary given'), (['--pc', 'zz', binary], 'expected a number after --pc'),
                      (['--bogus', binary], 'unknown option --bogus'),
                      (['--entry-values', 'often', binary], 'unknown --entry-values often'),
                      ([binary, binary], 'more than one binary'),
                      (['--lane', '1', binary], '--lane and --all-lanes need --context and a pc')]:
        json_usage(dw + ['locs', '--json'] + args, msg)
    json_usage(dw + ['locs', '--bogus', '--json', binary], 'unknown option --bogus')
    r = run(dw + ['vars', '--help'])
    ok(r.returncode == 0 and 'dwexpr vars --core CORE' in r.stdout, '--help prints the usage')


def json_usage(cmd, msg):
    """CMD fails with exit status 2 and exactly one JSON object on stdout:
    ok false, error class usage, a message holding MSG."""
    r = run(cmd)
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        doc = None
    err = (doc or {}).get('error') or {}
    ok(r.returncode == 2 and doc is not None and doc.get('ok') is False and
       err.get('class') == 'usage' and msg in (err.get('message') or '') and
       err.get('offset', 0) is None and err.get('op', 0) is None,
       'usage --json: %s -> the JSON object (%s)' % (' '.join(cmd[1:]), msg),
       'rc %d, stdout %r, stderr %r' % (r.returncode, r.stdout, r.stderr))


def input_errors(dw, binary, work):
    """Unreadable inputs: exit status 2, a message, nothing on stdout
    (with --json: the one JSON failure object)."""
    r = run(dw + ['vars', '--core', os.path.join(work, 'no-such-core'), binary])
    ok(r.returncode == 2 and 'no-such-core' in r.stderr and not r.stdout,
       'a core that does not exist', r.stderr)
    r = run(dw + ['vars', '--core', binary, binary])
    ok(r.returncode == 2 and 'is not an x86-64 core file' in r.stderr,
       'a file that is not a core', r.stderr)
    r = run(dw + ['vars', '--core', binary, os.path.join(work, 'no-such-binary')])
    ok(r.returncode == 2 and 'no-such-binary' in r.stderr, 'a binary that does not exist',
       r.stderr)
    # with --json: the failure object on stdout (unreadable input, exit 2)
    json_usage(dw + ['vars', '--json', '--core', os.path.join(work, 'no-such-core'), binary],
               'no-such-core')
    json_usage(dw + ['vars', '--json', '--core', binary, binary], 'is not an x86-64 core file')
    json_usage(dw + ['vars', '--json', '--core', binary, os.path.join(work, 'no-such-binary')],
               'no-such-binary')
    json_usage(dw + ['vars', '--json', '--pid', str(4194304 + 12345), binary], 'ptrace(ATTACH')
    json_usage(dw + ['locs', '--json', os.path.join(work, 'no-such-binary')], 'no-such-binary')
    nodwarf = os.path.join(work, 'nodwarf')
    b = run(['gcc', '-g0', '-o', nodwarf, '-x', 'c', '-'], input='int main(void){return 0;}\n')
    if b.returncode == 0:
        r = run(dw + ['vars', '--core', binary, nodwarf])
        ok(r.returncode == 2 and r.stderr, 'a binary without DWARF', r.stderr)
    # a pid with no process behind it
    pid = 4194304 + 12345
    r = run(dw + ['vars', '--pid', str(pid), binary])
    ok(r.returncode == 2 and 'ptrace(ATTACH' in r.stderr, 'a pid with no process', r.stderr)


def frame_named(res, name):
    for f in res['frames']:
        if f['function'] == name:
            return f
    return None


def var_named(frame, name):
    for v in frame['vars'] if frame else []:
        if v['name'] == name:
            return v
    return None


def glob(res, name):
    for v in res.get('globals', []):
        if v['name'] == name:
            return v
    return None


def says_why(v):
    """Whether a variable shown without bytes says why: optimized out, an
    error computing its location, reading it or computing its size, or an
    implicit pointer (which has no bytes of its own)."""
    return (v.get('hex') is not None or v.get('optimized_out') or
            'class' in (v.get('result') or {}) or 'read_error' in v or 'size_error' in v or
            'implicit_pointer' in v or 'class' in (v.get('data_location') or {}))


def contract_shape(res, what):
    """The contract's keys and types on every frame and variable."""
    bad = []
    for i, f in enumerate(res.get('frames', [])):
        for k, t in (('index', int), ('function', str), ('inline', bool), ('pc', str),
                     ('vars', list)):
            if not isinstance(f.get(k), t):
                bad.append('frame %d: %s' % (i, k))
        if f.get('index') != i:
            bad.append('frame %d has index %s' % (i, f.get('index')))
        if 'cfa' not in f or not (f['cfa'] is None or f['cfa'].startswith('0x')):
            bad.append('frame %d: cfa' % i)
        for v in f.get('vars', []):
            for k, t in (('name', str), ('kind', str), ('decl_line', int), ('block_depth', int),
                         ('type', str), ('bit_size', int), ('result', dict),
                         ('optimized_out', bool)):
                if not isinstance(v.get(k), t):
                    bad.append('frame %d %s: %s' % (i, v.get('name'), k))
            if v.get('kind') not in ('param', 'local'):
                bad.append('frame %d %s: kind %s' % (i, v.get('name'), v.get('kind')))
            if 'hex' not in v or not (v['hex'] is None or isinstance(v['hex'], str)):
                bad.append('frame %d %s: hex' % (i, v.get('name')))
            elif not says_why(v):
                bad.append('frame %d %s: no bytes and no reason' % (i, v.get('name')))
    ok(res.get('frames') and not bad, '%s: contract keys on every frame and variable, and '
       'every variable without bytes says why' % what, '\n'.join(bad[:20]))


def build_stopped(work, src, prog, flags, name):
    """Build progs/PROG with gcc FLAGS as WORK/NAME and run it until it
    stops itself (SIGSTOP): (the process, the executable), or (None, exe)
    after a failed check."""
    exe = os.path.join(work, name)
    b = run(['gcc', '-g'] + flags + ['-o', exe, os.path.join(src, prog)])
    ok(b.returncode == 0, 'build %s %s' % (prog, ' '.join(flags)), b.stderr)
    if b.returncode:
        return None, exe
    p, state = stop_self(exe)
    ok(p is not None, '%s stops itself' % prog, state)
    return p, exe


def live_process(dw, src, work):
    """`dwexpr vars --pid` on a process stopped by its own SIGSTOP."""
    p, exe = build_stopped(work, src, 'stopper.c', ['-O0'], 'stopper')
    if p is None:
        return
    try:
        r = run(dw + ['vars', '--pid', str(p.pid), '--json', exe])
        try:
            res = json.loads(r.stdout)
        except ValueError:
            ok(False, 'vars --pid gives JSON', r.stderr)
            return
        ok(r.returncode == 0, 'vars --pid exits 0', r.stderr)
        contract_shape(res, 'vars --pid')
        f = frame_named(res, 'stop_here')
        ok(f is not None and f['index'] > 0 and not f['inline'],
           'the stopped function is a caller frame (libc frames first)',
           [x['function'] for x in res['frames']])
        ok(frame_named(res, 'main') is not None, 'main is a frame')
        x, y = var_named(f, 'x'), var_named(f, 'y')
        ok(x and x['kind'] == 'param' and x['hex'] == '15000000', 'parameter x = 21', x)
        ok(y and y['kind'] == 'local' and y['hex'] == '2a000000', 'local y = 42 (on the stack)', y)
        g = glob(res, 'g_stop')
        ok(g and g['hex'] == '05000000', 'global g_stop = 5', g)
        t = glob(res, 't_stop')
        ok(t and t['hex'] == '1c000000', 'thread-local t_stop = 28 (fs_base, static TLS)', t)
        ok('thread_pointer' in res, 'the thread pointer is shown')
        # the process is left as it was: still stopped, and it goes on
        # (detached with SIGSTOP: it stops again as the signal arrives)
        for _ in range(100):
            state = open('/proc/%d/stat' % p.pid).read().split(')')[-1].split()[0]
            if state == 'T':
                break
            time.sleep(0.01)
        ok(state == 'T', 'the process is still stopped after dwexpr detaches', state)
        os.kill(p.pid, signal.SIGCONT)
        ok(p.wait(timeout=30) == 0, 'it then runs to its end')
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()


VDSO_GDB = r"""
import gdb
gdb.execute('set pagination off')
gdb.execute('break clock_gettime')
gdb.execute('run')
def in_vdso(pc):
    for line in gdb.execute('info proc mappings', to_string=True).splitlines():
        f = line.split()
        if f and f[-1] == '[vdso]':
            return int(f[0], 16) <= pc < int(f[1], 16)
    return False
for _ in range(400):
    if in_vdso(int(gdb.parse_and_eval('$pc'))):
        break
    gdb.execute('stepi', to_string=True)
f, out = gdb.newest_frame(), []
while f is not None and len(out) < 4:
    out.append('0x%x' % f.pc())
    f = f.older()
print('FRAMES ' + ' '.join(out))
gdb.execute('gcore ' + CORE)
"""


def vdso_frames(dw, src, work, gdb):
    """progs/vdso.c stopped inside the vDSO (GDB steps from libc's
    clock_gettime into the kernel's, then writes a core): the vDSO maps no
    file, so its CFI comes from its image in the core (AT_SYSINFO_EHDR);
    the first four frames' pcs are GDB's (the vDSO's function, libc's
    clock_gettime, spin, main)."""
    exe = os.path.join(work, 'vdso')
    core = exe + '.core'
    b = run(['gcc', '-g', '-O0', '-o', exe, os.path.join(src, 'vdso.c')])
    script = os.path.join(work, 'vdso_gdb.py')
    with open(script, 'w') as fp:
        fp.write('CORE = %r\n' % core + VDSO_GDB)
    g = run([gdb, '-nx', '-batch', '-x', script, exe])
    want = next((l.split()[1:] for l in g.stdout.splitlines() if l.startswith('FRAMES ')), [])
    r = run(dw + ['frames', '--core', core, '--json', exe])
    res = json.loads(r.stdout) if r.stdout.startswith('{') else {'frames': []}
    got = [f['pc'] for f in res['frames'][:4]]
    names = [f['function'] for f in res['frames'][:4]]
    ok(b.returncode == 0 and len(want) == 4 and got == want and names[2:] == ['spin', 'main'] and
       r.returncode == 0,
       'a core stopped in the vDSO: frames through it as GDB has them (its CFI from the core)',
       (want, got, names, r.stderr[-400:]))


def replaced_executable(dw, src, work):
    """`dwexpr vars --pid` on a process whose executable was replaced
    (deleted, rebuilt) since it started: the process's own copy (its
    /proc/PID/map_files entry) unwinds and describes its frames; BINARY
    the new file is said to be another one (/proc/PID/exe named as the
    one to give), and BINARY /proc/PID/exe is the process's executable."""
    p, exe = build_stopped(work, src, 'stopper.c', ['-O0'], 'stopper-replaced')
    if p is None:
        return
    try:
        os.unlink(exe)
        b = run(['gcc', '-g', '-O2', '-o', exe, os.path.join(src, 'stopper.c')])
        r = run(dw + ['vars', '--pid', str(p.pid), '--json', exe])
        res = json.loads(r.stdout) if r.stdout.startswith('{') else {'frames': []}
        f = frame_named(res, 'stop_here')
        x = var_named(f, 'x') if f else None
        ok(b.returncode == 0 and f is not None and x and x['hex'] == '15000000' and
           frame_named(res, 'main') is not None,
           'replaced executable: its frames from the process\'s copy (stop_here: x = 21, main)',
           [y['function'] for y in res['frames']])
        ok('it is not the file the process runs under that name' in r.stderr and
           '/proc/%d/exe' % p.pid in r.stderr,
           'replaced executable: BINARY, the new file, is said to be another (stderr)', r.stderr)
        r = run(dw + ['vars', '--pid', str(p.pid), '--json', '/proc/%d/exe' % p.pid])
        res = json.loads(r.stdout) if r.stdout.startswith('{') else {'frames': []}
        g = glob(res, 'g_stop')
        ok('not mapped' not in r.stderr and g and g['hex'] == '05000000',
           'replaced executable: BINARY /proc/PID/exe is its executable (global g_stop = 5)',
           (r.stderr, g))
    finally:
        p.kill()
        p.wait()


def container_executable(dw, src, work):
    """`dwexpr vars --pid` on a process that sees another file at its
    executable's name than the debugger does (a container: here a mount
    namespace that binds stopper.c -O0 over the name of a build of
    another program): the mapping's device and inode are not the file's
    at that name, so the process's own file is read (its map_files
    entry): its frames are stopper.c's; BINARY, that name, is said to be
    another file."""
    real, name = os.path.join(work, 'ns-real'), os.path.join(work, 'ns-name')
    b1 = run(['gcc', '-g', '-O0', '-o', real, os.path.join(src, 'stopper.c')])
    b2 = run(['gcc', '-g', '-O2', '-o', name, os.path.join(src, 'vdso.c')])
    p, state = stop_self('unshare', ['-m', '--propagation', 'private', 'sh', '-c',
                                     'mount --bind "$0" "$1" && exec "$1"', real, name])
    if p is None:
        ok(False, 'a process in a mount namespace of its own stops itself', state)
        return
    try:
        r = run(dw + ['vars', '--pid', str(p.pid), '--json', name])
        res = json.loads(r.stdout) if r.stdout.startswith('{') else {'frames': []}
        names = [f['function'] for f in res['frames']]
        ok(b1.returncode == 0 and b2.returncode == 0 and
           'stop_here' in names and 'main' in names and 'spin' not in names and
           'it is not the file the process runs under that name' in r.stderr,
           'a process seeing another file at its name (mount namespace): its own file read',
           (names, r.stderr[-400:]))
    finally:
        p.kill()
        p.wait()


def libc_declared_callee(dw, src, work):
    """glibc's raise(SIGSTOP) read with libc's DWARF (libc6-dbg, glibc
    2.34 and later): raise's call names the declaration __pthread_kill,
    whose definition's linkage name is __GI___pthread_kill (the ELF symbol
    __pthread_kill, a local one, is at its address); __pthread_kill's
    inlined __pthread_kill_internal jumps to
    __pthread_kill_implementation. GDB 13 shows that jump as a tail call
    frame, __pthread_kill_internal (signo = 19), and
    __pthread_kill_implementation's no_tid (an entry value) as 0, from the
    jump's call site. Skipped without libc's DWARF or in another shape."""
    p, exe = build_stopped(work, src, 'stopper.c', ['-O0'], 'stopper-libc')
    if p is None:
        return
    try:
        r = run(dw + ['vars', '--pid', str(p.pid), '--json', '--debug-dir', '/usr/lib/debug',
                      exe])
        res = json.loads(r.stdout or '{"frames": []}')
        libc = [x for x in res.get('modules', []) if 'libc.so' in (x.get('path') or '')]
        names = [f['function'] for f in res['frames']]
        if not (libc and libc[0].get('dwarf')) or names[:1] != ['__pthread_kill_implementation']:
            ok(True, 'libc raise: tail call frame # SKIP no libc DWARF of that shape (%s)' %
               names[:3])
            return
        frames = [(f['function'], bool(f.get('tail_call'))) for f in res['frames']][:3]
        ok(frames == [('__pthread_kill_implementation', False),
                      ('__pthread_kill_internal', True), ('__GI_raise', False)],
           'libc raise: the tail call frame of __pthread_kill_internal, reached through '
           'the declaration __pthread_kill', frames)
        sig = var_named(frame_named(res, '__pthread_kill_internal'), 'signo')
        no_tid = var_named(res['frames'][0], 'no_tid')
        ok(sig and sig.get('hex') == '13000000' and no_tid and
           no_tid.get('hex') == '00000000',
           'libc raise: __pthread_kill_internal signo = 19, and '
           '__pthread_kill_implementation no_tid = 0 (an entry value from the jump)',
           '%s; %s' % (describe(sig) if sig else None, describe(no_tid) if no_tid else None))
    finally:
        p.kill()
        p.wait()


def gdb_bt_names(gdb, pid, debug_dir):
    """The function names of GDB's backtrace of stopped process PID, its
    separate debug files looked for in DEBUG_DIR only."""
    g = run([gdb, '-nx', '-batch', '-iex', 'set debuginfod enabled off', '-iex',
             'set debug-file-directory ' + debug_dir, '-p', str(pid), '-ex', 'bt'])
    names = []
    for line in g.stdout.splitlines():
        m = re.match(r'#\d+\s+(?:0x[0-9a-f]+ in )?(\S+) \(', line)
        if m:
            names.append(m.group(1))
    return names


def gdb_frame_names(dw, src, work, gdb):
    """Frame names as GDB 13's backtrace shows them, on progs/asmname.c
    stopped inside raise: a C function with an assembler name is named by
    its DW_AT_linkage_name (work_impl, and libc's raise __GI_raise when
    libc's DWARF is installed), and a frame named from ELF symbols (libc
    without its debug file) by the alias whose name sorts last of those at
    its address (raise, not gsignal), as GDB's minimal symbols. Both with
    the default debug directory and with none; compared up to main, where
    GDB stops."""
    for tag, ddir in (('with /usr/lib/debug', '/usr/lib/debug'),
                      ('without separate debug files', NO_DEBUG_DIRS)):
        p, exe = build_stopped(work, src, 'asmname.c', ['-O0'], 'asmname')
        if p is None:
            return
        try:
            r = run(dw + ['vars', '--pid', str(p.pid), '--json', '--debug-dir', ddir, exe])
            res = json.loads(r.stdout or '{"frames": []}')
            ours = [f['function'] for f in res['frames']]
            theirs = gdb_bt_names(gdb, p.pid, ddir)
            ok(r.returncode == 0 and 'main' in theirs and 'work_impl' in theirs and
               ours[:len(theirs)] == theirs,
               'asmname.c %s: frame names as GDB shows them, %s' % (tag, ' '.join(theirs)),
               'dwexpr: %s; gdb: %s' % (ours, theirs))
        finally:
            p.kill()
            p.wait()


# A program that stops itself inside progs/solib_lib.c's library (its
# callback raises SIGSTOP): lib_run(stop, 3) reaches lib_leaf(cb, 42, 102)
# (-O2: lib_step inlined, lib_leaf's base an entry value).
STOP_IN_LIB = r'''
#include <signal.h>
int lib_run(void (*cb)(int), int n);
static void stop(int depth) { (void)depth; raise(SIGSTOP); }
int main(void) { return lib_run(stop, 3) == 0; }
'''


def stopped_in_lib(dw, src, d, how, exe_opt='-O0', lib_flags=()):
    """Build STOP_IN_LIB (at EXE_OPT) with libsolib_lib.so (LIB_FLAGS) in directory D,
    then HOW(lib) (a change to the library's DWARF; a list of extra vars
    options back), run it to its stop and read it: (`vars --pid --json`
    result, human output, the library's path), or None after a failed
    check."""
    os.makedirs(d, exist_ok=True)
    lib = os.path.join(d, 'libsolib_lib.so')
    exe = os.path.join(d, 'stop-in-lib')
    b = run(['gcc', '-g', '-O2', '-shared', '-fPIC', '-Wl,--build-id', '-o', lib,
             os.path.join(src, 'solib_lib.c')] + list(lib_flags))
    if b.returncode == 0:
        b = run(['gcc', '-g', exe_opt, '-o', exe, '-x', 'c', '-', '-L' + d, '-lsolib_lib',
                 '-Wl,-rpath,$ORIGIN'], input=STOP_IN_LIB)
    ok(b.returncode == 0, 'build a program stopping in its library (%s)' % os.path.basename(d),
       b.stderr)
    if b.returncode:
        return None
    extra = how(lib)
    if extra is None:
        return None
    p, state = stop_self(exe)
    ok(p is not None, 'it stops itself', state)
    if p is None:
        return None
    try:
        r = run(dw + ['vars', '--pid', str(p.pid), '--json'] + extra + [exe])
        h = run(dw + ['vars', '--pid', str(p.pid)] + extra + [exe])
    finally:
        p.kill()
        p.wait()
    try:
        res = json.loads(r.stdout)
    except ValueError:
        ok(False, 'vars --pid gives JSON', r.stderr)
        return None
    ok(r.returncode == 0, 'vars --pid exits 0', r.stderr)
    return res, h.stdout, os.path.realpath(lib)


# A library function that ends in a jump to another (jl_jump -> jl_leaf,
# gcc -O2), which the executable's main calls by a declaration: GDB 13
# shows the tail call frame jl_jump between jl_leaf and main.
JUMP_LIB = r'''
typedef void (*cb_t)(int);
volatile int jl_sink;
__attribute__((noinline, noclone)) int jl_leaf(cb_t cb, int v) { cb(v); return jl_sink + 1; }
__attribute__((noinline, noclone)) int jl_jump(cb_t cb, int v) { jl_sink = v; return jl_leaf(cb, v + 1); }
'''
JUMP_MAIN = r'''
#include <signal.h>
int jl_jump(void (*cb)(int), int v);
static void stop(int depth) { (void)depth; raise(SIGSTOP); }
int main(void) { return jl_jump(stop, 41) == 0; }
'''


def library_tail_call(dw, work):
    """A tail call frame in a shared library whose caller is in the
    executable (JUMP_LIB, JUMP_MAIN; gcc -O2): main's call names the
    declaration jl_jump, a function of the library, which jumps to
    jl_leaf. At the stop GDB 13 shows jl_leaf (v=v@entry=42), jl_jump [tail
    call] (cb=cb@entry=<stop>, v=v@entry=41), main: the chain is searched in
    the library from the function the declaration's name stands for there,
    and jl_jump's entry values come from main's call site."""
    d = os.path.join(work, 'jump-lib')
    os.makedirs(d, exist_ok=True)
    lib, exe = os.path.join(d, 'libjl.so'), os.path.join(d, 'jl')
    b = run(['gcc', '-g', '-O2', '-shared', '-fPIC', '-o', lib, '-x', 'c', '-'], input=JUMP_LIB)
    if b.returncode == 0:
        b = run(['gcc', '-g', '-O2', '-o', exe, '-x', 'c', '-', '-L' + d, '-ljl',
                 '-Wl,-rpath,$ORIGIN'], input=JUMP_MAIN)
    ok(b.returncode == 0, 'build a program calling a library function that jumps', b.stderr)
    if b.returncode:
        return
    p, state = stop_self(exe)
    ok(p is not None, 'it stops itself', state)
    if p is None:
        return
    try:
        r = run(dw + ['vars', '--pid', str(p.pid), '--json', exe])
    finally:
        p.kill()
        p.wait()
    res = json.loads(r.stdout or '{"frames": []}')
    names = [f['function'] for f in res['frames']]
    k = names.index('jl_leaf') if 'jl_leaf' in names else 0
    frames = [(f['function'], bool(f.get('tail_call'))) for f in res['frames'][k:k + 3]]
    ok(frames == [('jl_leaf', False), ('jl_jump', True), ('main', False)],
       'library tail call: the frame of jl_jump, which main\'s call names by a declaration '
       '(another module\'s function)', frames)
    vs = [var_named(frame_named(res, 'jl_leaf'), 'v'), var_named(frame_named(res, 'jl_jump'), 'v')]
    ok([v.get('hex') if v else None for v in vs] == ['2a000000', '29000000'],
       'library tail call: jl_leaf v = 42 (from the jump), jl_jump v = 41 (from main\'s call)',
       '; '.join(describe(v) if v else 'None' for v in vs))


def library_frames(dw, src, work):
    """Frames in a shared library: read with its DWARF (its own, or its
    separate debug file found by build id under --debug-dir), and without
    variables when its DWARF cannot be opened (which the human output
    says), the process still read."""
    def keep(lib):
        return ['--debug-dir', os.path.join(work, 'no-debug-files')]

    def split(lib):
        bid = re.search(r'Build ID: ([0-9a-f]+)', run(['readelf', '-n', lib]).stdout)
        dest = os.path.join(work, 'lib-debug', '.build-id', bid.group(1)[:2] if bid else 'xx',
                            (bid.group(1)[2:] if bid else 'x') + '.debug')
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        c = run(['objcopy', '--only-keep-debug', lib, dest])
        if c.returncode == 0:
            c = run(['strip', '-g', lib])
        ok(bid is not None and c.returncode == 0,
           'the library\'s DWARF moved to its build-id debug file', c.stderr)
        return ['--debug-dir', os.path.join(work, 'lib-debug')] if c.returncode == 0 else None

    def break_it(lib):
        # its first unit header says DWARF version 9
        info = lib + '.info'
        c = run(['objcopy', '-O', 'binary', '--only-section=.debug_info', lib, info])
        if c.returncode == 0:
            with open(info, 'r+b') as fp:
                fp.seek(4)
                fp.write(b'\x09\x00')
            c = run(['objcopy', '--update-section', '.debug_info=' + info, lib])
        ok(c.returncode == 0, 'the library\'s first unit becomes version 9', c.stderr)
        return [] if c.returncode == 0 else None

    for name, how in (('lib-dwarf', keep), ('lib-debugfile', split), ('lib-broken', break_it),
                      ('lib-exe-O2', keep), ('lib-debugfile-cfi', split)):
        # lib-debugfile-cfi: the library's only CFI is its .debug_frame
        # (-fno-asynchronous-unwind-tables), which strip -g moved to the
        # debug file with the DWARF
        got = stopped_in_lib(dw, src, os.path.join(work, name), how,
                             '-O2' if name == 'lib-exe-O2' else '-O0',
                             ['-fno-asynchronous-unwind-tables']
                             if name == 'lib-debugfile-cfi' else [])
        if not got:
            continue
        res, human, lib = got
        if name == 'lib-debugfile-cfi':
            names = [f['function'] for f in res['frames']]
            k = names.index('lib_leaf') if 'lib_leaf' in names else len(names)
            ok('main' in names[k:] and all(f.get('cfa') for f in res['frames'][k:]),
               'a library whose only CFI is in its debug file (.debug_frame): unwound from '
               'lib_leaf to main, every frame with its CFA',
               json.dumps([(f['function'], f.get('cfa')) for f in res['frames']]))
            continue
        if name == 'lib-exe-O2':
            # lib_run's parameters are gone at -O2 but for their entry
            # values, which the executable's call site (main, -O2: rdi =
            # &stop, rsi = 3) gives: a call site of another module, whose
            # callee is named by a declaration
            run_f = frame_named(res, 'lib_run')
            exe = os.path.join(work, name, 'stop-in-lib')
            sym = re.search(r'^([0-9a-f]+) t stop$', run(['nm', exe]).stdout, re.M)
            want = (int(res.get('load_bias', '0'), 16) + int(sym.group(1), 16)
                    if sym else None)
            cb, n = (var_named(run_f, 'cb'), var_named(run_f, 'n')) if run_f else (None, None)
            ok(want is not None and cb and n and
               cb.get('hex') == struct.pack('<Q', want).hex() and n.get('hex') == '03000000',
               'lib_run(cb = &stop, n = 3), entry values from the executable\'s call site',
               json.dumps(run_f)[:1500] if run_f else json.dumps(res)[:800])
            continue
        contract_shape(res, 'vars --pid, ' + name)
        leaf = frame_named(res, 'lib_leaf')
        mods = {m['path']: m for m in res.get('modules', [])}
        ok(leaf is not None and leaf.get('module') == lib and lib in mods,
           '%s: lib_leaf is a frame of the library, whose DWARF was looked for' % name,
           json.dumps([(f['function'], f.get('module')) for f in res['frames']])[:800])
        if not leaf or lib not in mods:
            continue
        if name != 'lib-broken':
            k, base = var_named(leaf, 'k'), var_named(leaf, 'base')
            step = frame_named(res, 'lib_step')
            ok(k and k['hex'] == '2a000000' and base and base['hex'] == '6600000000000000' and
               step is not None and step['inline'] and var_named(step, 'local') is not None,
               '%s: lib_leaf k = 42, base = 102; lib_step an inlined frame' % name,
               json.dumps(leaf['vars'])[:800])
            want = os.path.join(work, 'lib-debug') if name == 'lib-debugfile' else lib
            ok(bool(mods[lib].get('debug_file')) == (name == 'lib-debugfile') and
               (mods[lib].get('dwarf') or '').startswith(want),
               '%s: the DWARF read is %s' % (name, want), mods[lib])
        else:
            why = mods[lib].get('error') or ''
            lib_frames = [f for f in res['frames'] if f.get('module') == lib]
            ok(mods[lib].get('dwarf') is None and why and lib_frames and
               all(not f['vars'] for f in lib_frames) and
               frame_named(res, 'stop') and frame_named(res, 'stop')['vars'],
               'a library whose DWARF cannot be opened: its frames have no variables, '
               'the others have theirs', json.dumps(res.get('modules')))
            ok(('(no DWARF for %s: ' % lib) in human,
               'the human output says why its frames have no variables', human[:1500])


# progs/statics.c's qualified arrays and pointers, as GDB 13 spells them
# (compare_gdb.py checks the same against GDB)
STATICS_TYPES = {
    'grid': 'const int [2][3]', 'vv': 'volatile int [2]', 'names': 'const char * const[2]',
    'ptrs': 'char * const[2]', 'cvs': 'const volatile short [2]',
}
STATICS_GLOBAL_TYPES = {
    'c_table': 'const int [2][3]', 'c_name': 'const char [8]',
    'c_strs': 'const char * const[3]', 'cp_arr': 'char * const[2]',
    'cp_ptr': 'char * const (*)[2]', 'cv_arr': 'const volatile int [2]',
    'v_arr': 'volatile int [2]', 'v_grid': 'volatile short [2][2]',
    'cvp': 'int * const volatile',
}


def statics_live(dw, src, work):
    """progs/statics.c (gcc -O2 -DSTOP_SELF: it stops itself in its
    probe), read by `dwexpr vars --pid` without a debugger: the static
    locals of an inlined function and of one with an abstract and two
    concrete instances (described by the abstract instance only), the
    parameter of 15 recursive frames that is an entry value of an entry
    value down to the first call, and the types of qualified arrays."""
    p, exe = build_stopped(work, src, 'statics.c', ['-O2', '-DSTOP_SELF'], 'statics-O2')
    if p is None:
        return
    try:
        r = run(dw + ['vars', '--pid', str(p.pid), '--json', '--debug-dir', work, exe])
        try:
            res = json.loads(r.stdout)
        except ValueError:
            ok(False, 'statics.c: vars --pid gives JSON', r.stderr)
            return
        inl, outer = frame_named(res, 'inl'), frame_named(res, 'outer')
        ok(inl is not None and inl['inline'], 'statics.c: inl is an inline frame',
           [(x['function'], x['inline']) for x in res['frames']])
        h = var_named(inl, 'hits')
        ok(h and h['hex'] == '0b000000',
           'static local of an inlined function (abstract DIE\'s DW_OP_addr): hits = 11', h)
        s = var_named(outer, 'seen')
        ok(s and s['hex'] == 'c9000000',
           'static local of an out-of-line instance with an abstract origin: seen = 201', s)
        depths = [var_named(f, 'depth') for f in res['frames'] if f['function'] == 'rec']
        want = ['%02x000000' % k for k in range(15)]
        got = [d.get('hex') if d else None for d in depths]
        ok(got == want, 'rec(14)..rec(0): depth through 15 nested entry values',
           '%s\n%s' % (got, [describe(d) for d in depths if d and d.get('hex') is None][:2]))
        leaf = frame_named(res, 'leaf')
        got = {k: (var_named(leaf, k) or {}).get('type') for k in STATICS_TYPES}
        ok(got == STATICS_TYPES, 'statics.c: qualified local arrays spelled as GDB does', got)
        got = {k: (glob(res, k) or {}).get('type') for k in STATICS_GLOBAL_TYPES}
        ok(got == STATICS_GLOBAL_TYPES, 'statics.c: qualified global arrays and pointers spelled '
           'as GDB does', got)
    finally:
        p.kill()
        p.wait()


def describe(v):
    """A variable's result in short, for a failure's detail."""
    r = v.get('result', {})
    return '%s: %s' % (v.get('name'), r.get('detail') or r.get('message') or r)


def stop_self(exe, args=()):
    """Start EXE with ARGS and wait until it has stopped itself (SIGSTOP):
    the process, or None with the state it reached."""
    p = subprocess.Popen([exe] + list(args))
    state = ''
    for _ in range(200):
        try:
            state = open('/proc/%d/stat' % p.pid).read().split(')')[-1].split()[0]
        except OSError:
            break
        if state == 'T':
            return p, state
        time.sleep(0.02)
    p.kill()
    p.wait()
    return None, state


def sigvars_fac():
    """worker's fac when the ud2 of progs/sigvars.c interrupts it (i ==
    1000, after that iteration's update; n = 42, scale = 1.25): the same
    IEEE double arithmetic, 8 bytes little-endian in hex."""
    acc, fac = 1, 1.25
    for i in range(1001):
        acc = (acc * 6364136223846793005 + i * 3 + 42) & (2**64 - 1)
        fac = fac * 1.0000001 + float(acc & 7)
    return struct.pack('<d', fac).hex()


def entry_at(var, pc):
    """The expression bytes (hex) of VAR's location list entry holding PC."""
    for e in (var or {}).get('location', {}).get('entries', []):
        if 'low' in e and int(e['low'], 16) <= pc < int(e['high'], 16):
            return e.get('expr', {}).get('hex')
    return None


def signal_frame_vars(dw, src, work, gdb):
    """progs/sigvars.c (audit C items 1, 2): the frame a signal interrupted
    (worker, below glibc's __restore_rt) and its caller (main). The entry
    value of n (DW_OP_entry_value(DW_OP_reg5); DW_OP_stack_value, gcc -O2)
    is the caller's rdi at the call: the call site's 42, never worker's
    current rdi restored from the sigcontext (the loop's t, 3042); main's
    argv (an entry value of rsi, called from libc) is the process's argv
    when libc's DWARF (libc6-dbg) gives its call site, else optimized out
    (each run also without it: --debug-dir of nothing), never worker's
    rsi; fac (DW_OP_reg17, live in xmm0 at
    the interruption) is the xmm0 of the signal frame's saved fpstate,
    never the stopped thread's xmm0 (frame 0's, in raise). Read through
    --pid, and a core GDB writes of the stopped process."""
    fac_want = sigvars_fac()
    for cc in ('gcc', 'clang'):
        tag = 'sigvars.c %s -O2' % cc
        if not shutil.which(cc):
            ok(True, '%s # SKIP %s not installed' % (tag, cc))
            continue
        exe = os.path.join(work, 'sigvars-' + cc)
        b = run([cc, '-g', '-O2', '-o', exe, os.path.join(src, 'sigvars.c')])
        ok(b.returncode == 0, 'build ' + tag, b.stderr)
        if b.returncode:
            continue
        p, state = stop_self(exe)
        ok(p is not None, '%s: the process stops itself in the handler' % tag, state)
        if p is None:
            continue
        # main's argv: where the kernel put argc, plus 8 (proc(5)
        # startstack: the stack pointer at the program's entry)
        argv_want = struct.pack('<Q', int(open('/proc/%d/stat' % p.pid).read()
                                          .split(')')[-1].split()[25]) + 8).hex()
        no_debug = os.path.join(work, 'no-debug-files')
        os.makedirs(no_debug, exist_ok=True)
        try:
            modes = [('--pid', str(p.pid))]
            if gdb:
                core = exe + '.core'
                if os.path.exists(core):
                    os.unlink(core)
                run([gdb, '-nx', '-batch', '-iex', 'set debuginfod enabled off', '-p',
                     str(p.pid), '-ex', 'gcore ' + core, '-ex', 'detach'])
                if os.path.exists(core):
                    modes.append(('--core', core))
            # libc's debug file where GDB looks by default (libc6-dbg), and none
            modes = ([(mode, arg, '--debug-dir', '/usr/lib/debug') for mode, arg in modes] +
                     [(mode, arg, '--debug-dir', no_debug) for mode, arg in modes])
            for mode, arg, *debug in modes:
                if debug:
                    mode = '%s %s' % (mode, ' '.join(debug))
                r = run(dw + ['vars', mode.split()[0], arg, '--json'] + debug + [exe])
                try:
                    res = json.loads(r.stdout)
                except ValueError:
                    ok(False, '%s %s: JSON' % (tag, mode), r.stderr)
                    continue
                names = [f['function'] for f in res['frames']]
                w = frame_named(res, 'worker')
                m = frame_named(res, 'main')
                ok(w is not None and m is not None and 'handler' in names and
                   names.index('worker') == names.index('handler') + 2,
                   '%s %s: worker below the handler and the signal frame' % (tag, mode), names)
                if w is None or m is None:
                    continue
                pc = int(w['pc'], 16) - int(res.get('load_bias', '0x0'), 16)
                n, fac = var_named(w, 'n'), var_named(w, 'fac')
                # what each compiler makes of the interrupted pc: gcc -O2
                # has n as the entry value, clang -O2 keeps it in rax
                n_entry = entry_at(n, pc) == 'a301559f'
                ok(n and n['hex'] == '2a00000000000000' and
                   (n_entry or cc != 'gcc'),
                   '%s %s: worker n = 42%s' %
                   (tag, mode, ' (its entry value: the call site, not worker\'s rdi)'
                    if n_entry else ''),
                   'n at pc 0x%x: hex %s, entry value %s; %s' %
                   (pc, (n or {}).get('hex'), n_entry, json.dumps((n or {}).get('result'))))
                ok(fac and entry_at(fac, pc) == '61' and
                   (fac['hex'] == fac_want or (fac['optimized_out'] and
                                               fac['hex'] in (None, 'xx' * 8))),
                   '%s %s: worker fac (xmm0) = %s from the signal frame\'s fpstate' %
                   (tag, mode, fac_want),
                   'fac at pc 0x%x: hex %s, expression %s; %s' %
                   (pc, (fac or {}).get('hex'), entry_at(fac, pc),
                    json.dumps((fac or {}).get('result'))))
                argv = var_named(m, 'argv')
                libc = [x for x in res.get('modules', []) if 'libc.so' in (x.get('path') or '')]
                if libc and libc[0].get('dwarf'):
                    # libc's DWARF (libc6-dbg) was read: its call site of
                    # main, an indirect call whose target is main, gives
                    # the argv the process has
                    ok(argv and not argv['optimized_out'] and argv['hex'] == argv_want,
                       '%s %s: main argv (an entry value) from libc\'s call site = %s' %
                       (tag, mode, argv_want),
                       'hex %s; %s' % ((argv or {}).get('hex'),
                                       json.dumps((argv or {}).get('result'))))
                else:
                    ok(argv and argv['optimized_out'],
                       '%s %s: main argv (an entry value, libc gives no call site) is '
                       'optimized out' % (tag, mode),
                       'hex %s; %s' % ((argv or {}).get('hex'),
                                       json.dumps((argv or {}).get('result'))))
        finally:
            p.kill()
            p.wait()


def core_file(dw, src, work, gdb):
    """A core GDB writes at probe() of vars.c (gcc -O2: inlined twice(),
    entry values, pieces, implicit pointers, TLS)."""
    built = built_core(gdb, src, work, 'vars.c', ['-O2'], 'vars-O2')
    if not built:
        return
    exe, core = built
    r = run(dw + ['vars', '--core', core, '--json', exe])
    res = json.loads(r.stdout)
    ok(r.returncode == 0, 'vars --core exits 0', r.stderr)
    contract_shape(res, 'vars --core')
    names = [(f['function'], f['inline']) for f in res['frames']]
    want = [('probe', False), ('leaf', False), ('middle', False), ('twice', True),
            ('main', False)]
    ok(names[:5] == want, 'frames innermost first, the inlined call as its own frame', names)
    ok(res['frames'][3]['pc'] == res['frames'][4]['pc'] and
       res['frames'][3]['cfa'] == res['frames'][4]['cfa'],
       'an inlined frame shares its host frame\'s pc and CFA')
    probe = res['frames'][0]
    ok(var_named(probe, 'depth')['hex'] == '03000000', 'probe: depth = 3 (frame 0)')
    leaf = res['frames'][1]
    a = var_named(leaf, 'a')
    ok(a['hex'] == '03000000', 'leaf: a = 3 (an entry value in the caller)', a)
    pp = var_named(leaf, 'pp')
    ok(pp.get('implicit_pointer') and pp['hex'] is None, 'leaf: pp is an implicit pointer', pp)
    konst = var_named(leaf, 'konst')
    ok(konst['hex'] == '11000000', 'leaf: konst = 17 (a constant)', konst)
    middle = res['frames'][2]
    i = var_named(middle, 'i')
    ok(i['block_depth'] == 1 and i['hex'] == '03000000',
       'middle: i = 3 in a lexical block (a caller-saved register the callee keeps)', i)
    t = var_named(res['frames'][3], 't')
    ok(t and t['hex'] == '06000000', 'twice (inlined): t = 6', t)
    ok(glob(res, 't_counter')['hex'] == '64000000', 'thread-local t_counter = 100')
    rec = glob(res, 'g_rec')
    mem = {m['name']: m for m in rec.get('members', [])}
    ok(mem.get('flag', {}).get('hex') == '05' and mem.get('flag', {}).get('bit_size') == 3 and
       mem.get('mode', {}).get('hex') == '11' and mem.get('mode', {}).get('bit_offset') == 179,
       'g_rec: bit-fields flag = 5, mode = 17 as members', rec.get('members'))
    p = mem.get('p', {})
    ok([m['hex'] for m in p.get('members', [])] == ['01000000', '02000000'],
       'g_rec.p: nested members x = 1, y = 2', p)
    ok('warnings' not in res and 'warning' not in r.stderr,
       'vars --core with its own program: no warning', r.stderr)
    # the core of vars.c -O2 with another program (vars.c -O1: another
    # build id): a warning, not silent answers from the wrong places
    other = os.path.join(work, 'vars-O1-other')
    b = run(['gcc', '-g', '-O1', '-o', other, os.path.join(src, 'vars.c')])
    r = run(dw + ['vars', '--core', core, '--json', other])
    w = json.loads(r.stdout).get('warnings', []) if r.stdout.startswith('{') else []
    ok(b.returncode == 0 and len(w) == 1 and 'may not be the program the core was made of' in w[0]
       and 'build id' in w[0] and 'dwexpr: warning: ' + other in r.stderr,
       'vars --core with another program: "warnings" and stderr say so', (b.stderr, w, r.stderr))
    r = run(dw + ['frames', '--core', core, '--json', other])
    w = json.loads(r.stdout).get('warnings', []) if r.stdout.startswith('{') else []
    ok(len(w) == 1 and 'build id' in w[0], 'frames --core with another program: "warnings"', w)
    split_tls(dw, src, work, gdb)
    clang_dwp(dw, src, work, gdb)
    wide_ints(dw, src, work, gdb)
    h = run(dw + ['vars', '--core', core, exe])
    ok(h.returncode == 0 and 'frame 3: twice (inlined)' in h.stdout and
       '<synthetic pointer>' in h.stdout and 'globals:' in h.stdout,
       'human output', h.stdout[:800])


def wide_ints(dw, src, work, gdb):
    """progs/int128.c by gcc -O1 and clang -O1 / -O2: __int128 locals whose
    locations convert to and from 16-byte base types (gcc: s; clang: hi and
    lo), against the values worked out from the arguments (GDB 13 cannot
    read them). Each build checks the variables its debug information
    describes truly: gcc -O1 gives hi the location of lo (GDB reads the
    same), and gcc -O2 keeps p in r10/r11, caller-saved registers the call
    to probe() clobbers, and nothing else of interest, so it is left out."""
    a, b = 0x123456789, 0xfedcba987654321  # argc 1
    p = a * b
    want = {'a': (a, 8), 'b': (b, 8), 'p': (p, 16), 's': (a - 5, 16),
            'hi': (p >> 64, 8), 'lo': (p & (2**64 - 1), 8)}
    builds = [('gcc', '-O1', ['a', 'b', 'p', 's', 'lo']),
              ('clang', '-O1', ['a', 'b', 'p', 'hi', 'lo']),
              ('clang', '-O2', ['a', 'b', 'p', 'hi', 'lo'])]
    for cc, opt, names in builds:
        tag = 'int128.c %s %s' % (cc, opt)
        if not shutil.which(cc):
            ok(True, '%s # SKIP %s not installed' % (tag, cc))
            continue
        exe = os.path.join(work, 'int128-%s%s' % (cc, opt))
        bld = run([cc, '-g', opt, '-o', exe, os.path.join(src, 'int128.c')])
        ok(bld.returncode == 0, 'build ' + tag, bld.stderr)
        if bld.returncode:
            continue
        core, _ = core_at_probe(gdb, exe, work)
        r = run(dw + ['vars', '--core', core, '--json', exe])
        frame = frame_named(json.loads(r.stdout or '{"frames": []}'), 'wide')
        got = {v['name']: v for v in frame['vars']} if frame else {}
        bad = []
        for name in names:
            value, size = want[name]
            hx = value.to_bytes(size, 'little').hex()
            v = got.get(name, {})
            if v.get('hex') != hx:
                bad.append('%s = %s, want %s' % (name, v.get('hex', v.get('error')), hx))
        ok(r.returncode == 0 and frame is not None and not bad,
           '%s: %s' % (tag, ', '.join(names)), '\n'.join(bad) or r.stderr)


def core_threads(dw, src, work, gdb):
    """progs/threads.c: a core GDB writes with main in probe() and three
    workers waiting, each with its own id, mine = 100 + id and
    thread-local tl = 1000 + id. The core's threads are listed; --thread
    reads each worker's frames, locals and TLS (its own thread pointer,
    NT_FPREGSET and libunwind thread); an unknown thread is a usage
    error."""
    built = built_core(gdb, src, work, 'threads.c', ['-O0', '-pthread'], 'threads-O0')
    if not built:
        return
    exe, core = built
    r = run(dw + ['vars', '--core', core, '--json', exe])
    res = json.loads(r.stdout or '{}')
    tids = res.get('threads', [])
    first = [f['function'] for f in res.get('frames', [])][:1]
    ok(r.returncode == 0 and len(tids) == 4 and res.get('thread') == tids[0] and first == ['probe'],
       'threads.c: vars lists the core\'s 4 threads and reads the first (main, in probe)',
       'exit %d, threads %r, thread %r, frames %r' % (r.returncode, tids, res.get('thread'), first))
    seen = set()
    for tid in tids[1:]:
        r = run(dw + ['vars', '--core', core, '--json', '--thread', str(tid), exe])
        res = json.loads(r.stdout or '{}')
        w = [f for f in res.get('frames', []) if f['function'] == 'worker']
        got = {v['name']: v.get('hex') for v in (w[0]['vars'] if w else [])}
        tl = [g.get('hex') for g in res.get('globals', []) if g['name'] == 'tl']
        wid = int.from_bytes(bytes.fromhex(got.get('id') or '00'), 'little')
        seen.add(wid)
        want = {'id': wid.to_bytes(4, 'little').hex(),
                'mine': (100 + wid).to_bytes(4, 'little').hex()}
        ok(r.returncode == 0 and res.get('thread') == tid and 1 <= wid <= 3 and
           all(got.get(k) == v for k, v in want.items()) and
           tl == [(1000 + wid).to_bytes(4, 'little').hex()],
           'threads.c: vars --thread %d: worker %d\'s id, mine and its own tl' % (tid, wid),
           'exit %d, thread %r, worker %r, tl %r %s' % (r.returncode, res.get('thread'), got, tl,
                                                      r.stderr[-300:]))
        f = run(dw + ['frames', '--core', core, '--json', '--thread', str(tid), exe])
        fr = json.loads(f.stdout or '{}')
        ok(f.returncode == 0 and fr.get('thread') == tid and
           'worker' in [x.get('function') for x in fr.get('frames', [])],
           'threads.c: frames --thread %d unwinds that thread to worker' % tid,
           'exit %d, thread %r %s' % (f.returncode, fr.get('thread'), f.stderr[-300:]))
    ok(seen == {1, 2, 3}, 'threads.c: the three workers are three threads', repr(seen))
    missing = max(tids or [0]) + 1000000
    r = run(dw + ['vars', '--core', core, '--thread', str(missing), exe])
    ok(r.returncode == 2 and 'has no thread %d' % missing in r.stderr,
       'threads.c: --thread of no thread of the core is a usage error', r.stderr)
    r = run(dw + ['vars', '--pid', '1', '--thread', '5', exe])
    ok(r.returncode == 2 and '--thread is for --core' in r.stderr,
       'vars --pid with --thread is a usage error', r.stderr)


def recursion_entry_values(dw, src, work, gdb):
    """progs/recursion.c by gcc -O2: 300 frames of rec(n, acc) whose
    parameters are the caller's entry values all the way up to main's
    constants (rec(300, 1); each call passes n - 1 and acc * 3 + n): every
    frame's n and acc against the values worked out here. dwexpr vars
    keeps each frame's entry values for the run; worked out again for
    every question, the call-site values (two entry values each) branch
    at every frame, and the run does not end within the timeout."""
    built = built_core(gdb, src, work, 'recursion.c', ['-O2'], 'recursion-O2')
    if not built:
        return
    exe, core = built
    try:
        r = run(dw + ['vars', '--core', core, '--json', exe])  # --max's default: 4096
    except subprocess.TimeoutExpired:
        ok(False, 'recursion.c gcc -O2: dwexpr vars', 'did not end within 120 s')
        return
    res = json.loads(r.stdout or '{"frames": []}')
    acc = {300: 1}
    for n in range(300, 0, -1):
        acc[n - 1] = (acc[n] * 3 + n) & (2**64 - 1)
    frames = [f for f in res['frames'] if f['function'] == 'rec']
    bad = []
    for f in frames:
        n = f['index'] - 1  # frame 0 is probe, frame 1 rec(0, ...)
        got = {v['name']: v.get('hex') for v in f['vars']}
        for name, want in (('n', n.to_bytes(4, 'little').hex()),
                           ('acc', acc[n].to_bytes(8, 'little').hex())):
            if got.get(name) != want:
                bad.append('frame %d %s = %s, want %s' % (f['index'], name, got.get(name), want))
    ok(r.returncode == 0 and len(frames) == 301 and not bad,
       'recursion.c gcc -O2: n and acc of all 301 frames of rec, through entry values',
       '\n'.join(bad[:10]) or ('%d frames of rec' % len(frames)) + r.stderr[-300:])
    # a stack 1500 calls deep: every frame by default (--max 4096), each
    # checked against libunwind's (the cross-check once stopped at 1001)
    built = built_core(gdb, src, work, 'recursion.c', ['-O2', '-DDEPTH=1500'], 'recursion-1500')
    if built:
        r = run(dw + ['frames', '--core', built[1], '--json', built[0]])
        res = json.loads(r.stdout or '{"frames": []}')
        lu = res.get('libunwind', {})
        nrec = sum(1 for f in res['frames'] if f.get('function') == 'rec')
        ok(r.returncode == 0 and nrec == 1501 and lu.get('checked', 0) >= 1503 and
           not lu.get('disagreements') and 'error' not in res,
           'recursion.c 1500 deep: frames lists all 1501 frames of rec, libunwind agreeing',
           'exit %d, %d rec frames, %r %s' % (r.returncode, nrec, lu, r.stderr[-300:]))
        # every frame's n through entry values 1500 callers deep: vars
        # evaluates the outermost frames first, so each chain is one
        # frame long (innermost first, the chains hit the nesting limit
        # past a depth: "the target could not give the entry value")
        r = run(dw + ['vars', '--core', built[1], '--json', built[0]])
        res = json.loads(r.stdout or '{"frames": []}')
        bad = ['frame %d n = %s' % (f['index'], v.get('hex'))
               for f in res['frames'] if f['function'] == 'rec'
               for v in f['vars'] if v['name'] == 'n' and
               v.get('hex') != (f['index'] - 1).to_bytes(4, 'little').hex()]
        nrec = sum(1 for f in res['frames'] if f.get('function') == 'rec')
        ok(r.returncode == 0 and nrec == 1501 and not bad,
           'recursion.c 1500 deep: vars reads n of all 1501 frames of rec (entry values)',
           '%d rec frames; %s' % (nrec, '; '.join(bad[:5])))
    # --max N: the first N frames, then the unwinding error (exit status 1)
    r = run(dw + ['vars', '--core', core, '--json', '--max', '50', exe])
    res = json.loads(r.stdout or '{"frames": []}')
    err = (res.get('error') or {}).get('message', '')
    ok(r.returncode == 1 and len(res['frames']) == 50 and 'more than 50 frames' in err,
       'recursion.c gcc -O2: vars --max 50 lists 50 frames, then "more than 50 frames"',
       'exit %d, %d frames, error %r' % (r.returncode, len(res['frames']), err))


def nested_functions(dw, src, work, gdb):
    """progs/nested.c by gcc -O2: outerfn is inlined everywhere, so its DIE
    is abstract (DW_AT_inline, no pcs); the GNU nested function cmp that
    qsort calls is a concrete DW_TAG_subprogram among its children, and
    inner_sq is inlined into cmp. The frames and values GDB 13 shows: cmp
    (not the ELF symbol cmp.0) with y = 2, and the inlined inner_sq above
    it with its block's sq = 21."""
    built = built_core(gdb, src, work, 'nested.c', ['-O2'], 'nested-O2')
    if not built:
        return
    exe, core = built
    r = run(dw + ['vars', '--core', core, '--json', exe])
    res = json.loads(r.stdout or '{"frames": []}')
    names = [f['function'] for f in res['frames']][:4]
    cmp, sq = frame_named(res, 'cmp'), frame_named(res, 'inner_sq')
    y = var_named(cmp, 'y') if cmp else None
    sqs = [v.get('hex') for v in sq['vars'] if v['name'] == 'sq'] if sq else []
    ok(names[:3] == ['probe', 'inner_sq', 'cmp'] and sq['inline'] and y and
       y['hex'] == '02000000' and '15000000' in sqs,
       'nested.c gcc -O2: the nested function cmp inside the abstract outerfn, y = 2, '
       'inlined inner_sq with sq = 21', '%s y=%s sq=%s' % (names, y, sqs))
    # with libc's DWARF (libc6-dbg): outerfn's call names the declaration
    # qsort, libc's qsort (its DWARF linkage name __GI_qsort) jumps to
    # __qsort_r: GDB 13 shows the tail call frame __GI_qsort between
    # __GI___qsort_r and outerfn, n = 12 in both (entry values: the jump's
    # call site and outerfn's, another module's)
    r = run(dw + ['vars', '--core', core, '--json', '--debug-dir', '/usr/lib/debug', exe])
    res = json.loads(r.stdout or '{"frames": []}')
    libc = [x for x in res.get('modules', []) if 'libc.so' in (x.get('path') or '')]
    names = [f['function'] for f in res['frames']]
    if not (libc and libc[0].get('dwarf')) or '__GI___qsort_r' not in names:
        ok(True, 'nested.c gcc -O2: qsort\'s tail call frame # SKIP no libc DWARF of that '
           'shape (%s)' % names)
        return
    k = names.index('__GI___qsort_r')
    frames = [(f['function'], bool(f.get('tail_call'))) for f in res['frames'][k:k + 3]]
    ok(frames == [('__GI___qsort_r', False), ('__GI_qsort', True), ('outerfn', False)],
       'nested.c gcc -O2 with libc\'s DWARF: the tail call frame of qsort, which outerfn\'s '
       'call names by a declaration of another module', frames)
    ns = [var_named(f, 'n') for f in res['frames'][k:k + 2]]
    ok(all(n and n.get('hex') == '0c00000000000000' for n in ns),
       'nested.c gcc -O2 with libc\'s DWARF: n = 12 in __qsort_r and in qsort (entry values '
       'from the jump and from outerfn\'s call)',
       '; '.join(describe(n) if n else 'None' for n in ns))


def declared_callees(dw, src, work, gdb):
    """progs/decl_[abc].c by gcc -O2: call sites whose DW_AT_call_origin
    is a declaration of a function of another unit, taken by the
    declaration's name as GDB takes it (the ELF symbol of that name,
    global before static): hop's call names jumper, whose definition's
    linkage name is __GI_jumper (glibc's hidden_proto shape: GDB finds the
    alias symbol "jumper"); main's call names pick, which decl_b.c also
    has as a static function, first in the DWARF. The frames and values
    GDB 13 shows at the probe: leaf z = 25, the tail call frame of jumper
    (x = 24; named __GI_jumper, its linkage name, as GDB names it), hop
    h = 14, pick p = 7, each an entry value from its caller's call site."""
    built = built_core(gdb, src, work, 'decl_[abc].c', ['-O2'], 'decl-O2',
                       sources=['decl_%s.c' % k for k in 'abc'])
    if not built:
        return
    exe, core = built
    r = run(dw + ['vars', '--core', core, '--json', exe])
    res = json.loads(r.stdout or '{"frames": []}')
    frames = [(f['function'], bool(f.get('tail_call'))) for f in res['frames']][:6]
    ok(frames == [('probe', False), ('leaf', False), ('__GI_jumper', True), ('hop', False),
                  ('pick', False), ('main', False)],
       'decl: the tail call frame of jumper, which hop\'s call names by a declaration '
       '(its definition\'s linkage name is __GI_jumper)', frames)
    want = (('leaf', 'z', '19000000'), ('__GI_jumper', 'x', '18000000'), ('hop', 'h', '0e000000'),
            ('pick', 'p', '07000000'))
    bad = []
    for fn, name, hx in want:
        v = var_named(frame_named(res, fn), name) if frame_named(res, fn) else None
        if not v or v.get('hex') != hx:
            bad.append('%s %s = %s, want %s' % (fn, name, describe(v) if v else None, hx))
    ok(not bad, 'decl: the entry values through call sites naming declarations: leaf z = 25, '
       'jumper x = 24, hop h = 14, pick p = 7 (the global pick, not the static one)',
       '\n'.join(bad))
    # the global pick made local (objcopy): two local symbols pick at
    # different addresses, and no global one. GDB 13 takes one of them
    # (here the static one: p, and h, x, z that follow from it, are
    # <optimized out>, the tail call frame stays); dwexpr takes none, with
    # the same values, and says why
    amb = exe + '-local'
    o = run(['objcopy', '--localize-symbol=pick', exe, amb])
    if o.returncode:
        ok(True, 'decl: an ambiguous name # SKIP objcopy: %s' % o.stderr.strip()[:100])
        return
    r = run(dw + ['vars', '--core', core, '--json', amb])
    res = json.loads(r.stdout or '{"frames": []}')
    p = var_named(frame_named(res, 'pick'), 'p')
    ok(p is not None and p['optimized_out'] and
       'several functions have that name' in describe(p),
       'decl: a declaration two local functions have the name of (pick) names neither: '
       'pick p is optimized out', describe(p) if p else None)
    frames = [(f['function'], bool(f.get('tail_call'))) for f in res['frames']][:6]
    gone = [var_named(frame_named(res, fn), name) for fn, name in
            (('leaf', 'z'), ('__GI_jumper', 'x'), ('hop', 'h'))]
    ok(frames[2] == ('__GI_jumper', True) and all(v and v['optimized_out'] for v in gone),
       'decl: then leaf z, jumper x, hop h are optimized out (they follow from p), as in GDB, '
       'and jumper\'s tail call frame stays', '%s %s' % (frames, gone))
    # clang 14 -O2: declarations too; its jump has no return pc (no tail
    # call frame, as GDB 13): leaf z = 25, hop h optimized out, pick p = 7
    # (the global pick)
    if not shutil.which('clang'):
        ok(True, 'decl: clang -O2 # SKIP clang not installed')
        return
    exe = os.path.join(work, 'decl-clang-O2')
    b = run(['clang', '-g', '-O2', '-o', exe] +
            [os.path.join(src, 'decl_%s.c' % k) for k in 'abc'])
    ok(b.returncode == 0, 'build decl_[abc].c clang -O2', b.stderr)
    if b.returncode:
        return
    core, g = core_at_probe(gdb, exe, work)
    if not os.path.exists(core):
        ok(False, 'decl clang: gdb writes a core at probe', g.stderr[-500:])
        return
    r = run(dw + ['vars', '--core', core, '--json', exe])
    res = json.loads(r.stdout or '{"frames": []}')
    frames = [f['function'] for f in res['frames']][:5]
    got = [var_named(frame_named(res, fn), name) for fn, name in
           (('leaf', 'z'), ('hop', 'h'), ('pick', 'p'))]
    ok(frames == ['probe', 'leaf', 'hop', 'pick', 'main'] and got[0] and
       got[0]['hex'] == '19000000' and got[1] and got[1]['optimized_out'] and got[2] and
       got[2]['hex'] == '07000000',
       'decl clang -O2: leaf z = 25, hop h optimized out, pick p = 7 (main\'s call names the '
       'declaration pick: the global one), as GDB 13',
       '%s; %s' % (frames, '; '.join(describe(v) if v else 'None' for v in got)))


def fortran_sizes(dw, src, work, gdb):
    """progs/shapes.f90 by gfortran -O2: the pointer sections p and q of
    the dummy array a keep their descriptors in pieces of implicit values
    (no address), and the bounds expressions start with
    DW_OP_push_object_address DW_OP_plus_uconst: on a composite location
    that is not a value (seed "Stack Operations"/"Arithmetic and Logical
    Operations": a location converts to a value only from memory), so the
    size is unknown, as GDB 13 cannot print them either. dwexpr vars must
    say so (size_error) rather than show nothing; a's bounds live in
    variables optimized out. Every variable without bytes says why."""
    if not shutil.which('gfortran'):
        ok(False, 'shapes.f90: gfortran is installed (README: apt-get install gfortran)')
        return
    exe = os.path.join(os.path.abspath(work), 'shapes-O2')
    src = os.path.abspath(src)
    bld = run(['gfortran', '-g', '-O2', '-o', exe, os.path.join(src, 'shapes.f90'),
               os.path.join(src, 'shapes_probe.f90')], cwd=work)  # its .mod in WORK
    ok(bld.returncode == 0, 'build shapes.f90 -O2', bld.stderr)
    if bld.returncode:
        return
    core, g = core_at_probe(gdb, exe, work)
    if not os.path.exists(core):
        ok(False, 'shapes.f90: gcore', g.stderr)
        return
    r = run(dw + ['vars', '--core', core, '--json', exe])
    res = json.loads(r.stdout or '{"frames": []}')
    fr = frame_named(res, 'shapes_m::shapes')
    got = {}
    for name in ('a', 'n', 'p', 'q'):
        v = var_named(fr, name) if fr else None
        got[name] = (v.get('hex'), (v.get('size_error') or {}).get('status'),
                     (v.get('size_error') or {}).get('op')) if v else None
    ok(got == {'a': (None, 'E_UNDEFINED_READ', None), 'n': ('04000000', None, None),
               'p': (None, 'E_NOT_VALUE', 'DW_OP_plus_uconst'),
               'q': (None, 'E_NOT_VALUE', 'DW_OP_plus_uconst')},
       'shapes.f90 gfortran -O2: sizes that cannot be computed say why (size_error)', got)
    ok(r.returncode == 0, 'shapes.f90: vars --core exits 0', r.stderr)
    contract_shape(res, 'shapes.f90 vars --core')
    t = run(dw + ['vars', '--core', core, exe])
    ok('size unknown: a composite location description is not a value' in t.stdout,
       'shapes.f90: the text output says why p has no bytes', t.stdout[-2000:])


def avx_vectors(dw, src, work, gdb):
    """progs/avx.c by gcc -O3 -march=x86-64-v3 (where the CPU has AVX2):
    probe_v's 32-byte vector parameters a, b, c live in DWARF registers
    17-19, which with AVX are ymm0-2 (their upper halves from the core's
    NT_X86_XSTATE), and the 16-byte q in xmm3: the values GDB 13 prints,
    a = {0, 0.5, ..., 3.5}, b = {4, 2, 3, 4, 5, 6, 7, 646},
    c = {1.5, 2.5, 646, 4.5}, q = {9, 8, 7, 6}."""
    try:
        with open('/proc/cpuinfo') as f:
            avx2 = ' avx2' in f.read()
    except OSError:
        avx2 = False
    if not avx2:
        ok(True, 'avx.c # SKIP the CPU has no AVX2')
        return
    built = built_core(gdb, src, work, 'avx.c', ['-O3', '-march=x86-64-v3'], 'avx-O3', 'probe_v')
    if not built:
        return
    exe, core = built
    r = run(dw + ['vars', '--core', core, '--json', exe])
    frame = frame_named(json.loads(r.stdout or '{"frames": []}'), 'probe_v')
    want = {'a': struct.pack('<8f', *[i * 0.5 for i in range(8)]),
            'b': struct.pack('<8f', 4, 2, 3, 4, 5, 6, 7, 646),
            'c': struct.pack('<4d', 1.5, 2.5, 646, 4.5),
            'q': struct.pack('<4f', 9, 8, 7, 6)}
    bad = []
    for name, w in want.items():
        v = var_named(frame, name) or {}
        if v.get('hex') != w.hex():
            bad.append('%s = %s, want %s' % (name, v.get('hex', v.get('result')), w.hex()))
    ok(frame is not None and not bad,
       'avx.c -O3 -march=x86-64-v3: probe_v\'s ymm vectors a, b, c and xmm q',
       '\n'.join(bad) or r.stderr[-300:])


def long_doubles(dw, src, work, gdb):
    """progs/ldexpr.c by gcc -O2: long double (x87 80-bit extended in 16
    bytes) variables whose locations compute them: work()'s from its
    parameters in memory (DW_OP_deref_type 16, DW_OP_const_type, plus,
    minus, mul, div, neg, DW_OP_convert of an int) at its call of
    probe(), and ldreg()'s from st0 (DW_OP_regval_type 33 <long double>:
    the 10-byte register read as the 16-byte type) at the STOP line, one
    of them an int from a comparison. Each against the bytes GDB 13
    gives: p/x of a long double is its 80-bit value, the padding zero."""
    built = built_core(gdb, src, work, 'ldexpr.c', ['-O2'], 'ldexpr-O2')
    if not built:
        return
    exe, core = built
    os.replace(core, exe + '.probe.core')
    core = exe + '.probe.core'
    with open(os.path.join(src, 'ldexpr.c')) as f:
        stop = [i + 1 for i, line in enumerate(f) if '/* STOP */' in line][0]
    core2, g2 = core_at_probe(gdb, exe, work, 'ldexpr.c:%d' % stop)
    cases = [(core, 'work', ['a', 'b', 'sum', 'dif', 'pr', 'qu', 'ng', 'k'], [], 'probe() call'),
             (core2, 'ldreg', ['u', 'twice', 'half', 'neg'], ['big'], 'STOP line')]
    for c, fn, lds, ints, where in cases:
        cmd = [gdb, '-nx', '-batch', '-iex', 'set debuginfod enabled off', '-ex',
               'frame function ' + fn]
        for name in lds + ints:
            cmd += ['-ex', 'output/x %s' % name, '-ex', 'echo \\n']
        g = run(cmd + [exe, c])
        vals = [line for line in g.stdout.splitlines() if line.startswith('0x')]
        if len(vals) != len(lds) + len(ints):
            ok(False, 'ldexpr.c gcc -O2 %s: GDB prints %s' % (fn, lds + ints), g.stdout + g.stderr)
            continue
        want = {}
        for name, v in zip(lds, vals):
            want[name] = int(v, 16).to_bytes(10, 'little').hex() + '00' * 6
        for name, v in zip(ints, vals[len(lds):]):
            want[name] = int(v, 16).to_bytes(4, 'little').hex()
        r = run(dw + ['vars', '--core', c, '--json', exe])
        frame = frame_named(json.loads(r.stdout or '{"frames": []}'), fn)
        bad = []
        for name, w in want.items():
            v = var_named(frame, name) or {}
            if v.get('hex') != w:
                bad.append('%s = %s, want %s (GDB)' % (name, v.get('hex', v.get('result')), w))
        ok(r.returncode == 0 and frame is not None and not bad,
           'ldexpr.c gcc -O2: %s\'s long doubles at the %s as GDB reads them (%s)'
           % (fn, where, ', '.join(lds + ints)), '\n'.join(bad) or r.stderr[-300:])


def split_tls(dw, src, work, gdb):
    """Thread-local variables of a split unit (gcc -gsplit-dwarf, DWARF 5:
    DW_OP_constx N; DW_OP_form_tls_address, GDB 13 cannot evaluate it):
    binutils ld leaves the variable's link-time address in .debug_addr,
    which dwexpr turns back into the TLS offset."""
    d = os.path.join(work, 'split')
    os.makedirs(d, exist_ok=True)
    exe = os.path.join(d, 'vars-split')
    b = run(['gcc', '-g', '-gsplit-dwarf', '-gdwarf-5', '-O2', '-o', exe,
             os.path.abspath(os.path.join(src, 'vars.c'))], cwd=d)
    ok(b.returncode == 0, 'build vars.c -gsplit-dwarf', b.stderr)
    core, _ = core_at_probe(gdb, exe, d)
    r = run(dw + ['vars', '--core', core, '--json', exe])
    try:
        res = json.loads(r.stdout)
    except ValueError:
        ok(False, 'vars on the split build', r.stderr)
        return
    ops = (glob(res, 't_counter') or {}).get('location', {}).get('expr', {}).get('ops', [])
    ok(any('constx' in o for o in ops) and any('form_tls_address' in o for o in ops),
       'split: t_counter is DW_OP_constx + DW_OP_form_tls_address', ops)
    ok(glob(res, 't_counter')['hex'] == '64000000' and
       glob(res, 't_pt')['hex'] == '0e00000016000000',
       'split: thread-local t_counter = 100, t_pt = {14, 22}',
       [glob(res, 't_counter'), glob(res, 't_pt')])


def clang_dwp(dw, src, work, gdb):
    """clang's DWARF 5 split units packaged by llvm-dwp (GDB 13 stops with
    an internal error on such a package, so dwexpr's values are checked
    against the program's known state instead): the core is written while
    the .dwo files are there, then they are packaged and moved away."""
    if not shutil.which('clang') or not shutil.which('llvm-dwp'):
        ok(True, 'clang .dwp # SKIP clang or llvm-dwp not installed')
        return
    d = os.path.join(work, 'clang-dwp')
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        if os.path.isfile(os.path.join(d, f)):
            os.unlink(os.path.join(d, f))
    exe = os.path.join(d, 'vars-cdwp')
    b = run(['clang', '-g', '-gsplit-dwarf', '-gdwarf-5', '-O2', '-o', exe,
             os.path.abspath(os.path.join(src, 'vars.c'))], cwd=d)
    ok(b.returncode == 0, 'build vars.c with clang -gsplit-dwarf', b.stderr)
    core, _ = core_at_probe(gdb, exe, d)
    p = run(['llvm-dwp', '-e', exe, '-o', exe + '.dwp'], cwd=d)
    ok(p.returncode == 0 and os.path.exists(core), 'llvm-dwp packages it; a core', p.stderr)
    hidden = os.path.join(d, 'packaged')
    os.makedirs(hidden, exist_ok=True)
    for f in os.listdir(d):
        if f.endswith('.dwo'):
            os.replace(os.path.join(d, f), os.path.join(hidden, f))
    r = run(dw + ['vars', '--core', core, '--json', exe])
    try:
        res = json.loads(r.stdout)
    except ValueError:
        ok(False, 'vars on the clang .dwp build', r.stderr)
        return
    ok([f['function'] for f in res['frames'][:3]] == ['probe', 'leaf', 'middle'],
       'clang .dwp: frames', [f['function'] for f in res['frames']])
    want = {('leaf', 'a'): '03000000', ('leaf', 'b'): '0e00000000000000',
            ('leaf', 'd'): '0000000000001240', ('middle', 'n'): '04000000',
            ('middle', 'total'): '0e00000000000000',
            ('middle', 'i'): '03000000', ('twice', 'v'): '03000000',
            ('main', 'argc'): '01000000'}
    have = {}
    for f in res['frames']:
        for v in f['vars']:
            if (f['function'], v['name']) in want:
                have[(f['function'], v['name'])] = v['hex']
    ok(have == want, 'clang .dwp: location lists and entry values read from the package',
       'have %s\nwant %s' % (have, want))
    ok(glob(res, 'g_int')['hex'] == '2a000000' and glob(res, 't_counter')['hex'] == '64000000',
       'clang .dwp: a global and a thread-local variable')


def attrs_entries(dw, attrs, work):
    """The variable entries of `dwexpr vars` (the code `dwexpr locs --pc`
    shares with it: locs_eval_var) for the hand-written DWARF of attrs.S,
    evaluated on a simulated target: callee at 0x8010 called from f1, whose
    call site at 0x1050 passes only the parameter p."""
    ctx = os.path.join(work, 'attrs-context.json')
    with open(ctx, 'w') as f:
        json.dump({'arch': 'x86_64',
                   'frames': [{'pc': '0x8010', 'cfa': '0x7800',
                               'registers': {'0': '0x11', '4': '0x44', '5': '0x55'}},
                              {'pc': '0x1050', 'registers': {}}]}, f)

    def entries(pc):
        r = run(dw + ['locs', attrs, '--pc', pc, '--context', ctx, '--json'])
        try:
            res = json.loads(r.stdout)
        except ValueError:
            return {}, r
        got = {v['name']: v for v in res.get('globals', [])}
        for fr in res.get('frames', []):
            got.update({v['name']: v for v in fr['vars']})
        return got, r

    # an error in a location list entry: offset and op of the entry's own
    # failing operation, not the adapter's internal DW_OP_call_ref
    for pc, off, what in (('0x10a4', 3, 'one matching entry'),
                          ('0x1078', 2, 'two matching entries, the second fails')):
        got, r = entries(pc)
        res = got.get('v_bad', {}).get('result', {})
        ok(res.get('class') == 'evaluation' and res.get('offset') == off and
           res.get('op') == 'DW_OP_div' and res.get('message') == 'division by zero',
           'list entry error at %s (%s): evaluation @%d DW_OP_div' % (pc, what, off),
           json.dumps(res) + r.stderr)
    got, r = entries('0x1068')
    res = got.get('v_bad', {}).get('result', {})
    ok(res.get('locations') == [{'kind': 'register', 'regno': 0, 'bit_offset': 0}],
       'the list entry that works at 0x1068: register 0', json.dumps(res) + r.stderr)
    # DW_OP_GNU_parameter_ref: the value the call site passes, else the
    # value is gone: optimized out (GDB's <optimized out>), as an entry
    # value the caller does not keep, and the exit status stays 0
    got, r = entries('0x8010')
    pr, gone, q = got.get('pr', {}), got.get('pr_gone', {}), got.get('q', {})
    ok(pr.get('hex') == '0700000000000000' and pr.get('optimized_out') is False,
       'parameter_ref of p, which the call site passes: 7', json.dumps(pr) + r.stderr)
    res = gone.get('result', {})
    ok(gone.get('optimized_out') is True and gone.get('hex') is None and
       res.get('class') == 'evaluation' and res.get('status') == 'E_UNDEFINED_READ' and
       res.get('op') == 'DW_OP_GNU_parameter_ref' and res.get('offset') == 0 and
       'does not pass it' in res.get('detail', ''),
       'parameter_ref of q, which the call site does not pass: optimized out',
       json.dumps(gone) + r.stderr)
    ok(q.get('optimized_out') is True and gone.get('result', {}).get('status') ==
       q.get('result', {}).get('status'),
       'the same as q\'s own entry value the caller does not keep', json.dumps(q))
    ok(r.returncode == 0, 'an optimized-out variable is no failure: exit status 0',
       'rc %d: %s' % (r.returncode, r.stderr))
    # the same DWARF in compressed sections (SHF_COMPRESSED, zlib: as
    # Debian's separate debug files have them) reads the same: location
    # lists, .debug_addr and the DIEs inflated
    z = os.path.join(work, 'attrs-zlib')
    c = run(['objcopy', '--compress-debug-sections=zlib', attrs, z])
    if c.returncode != 0:
        # binutils comes with the compilers this test needs: a failure here
        # is a broken tool chain, not a reason to skip
        ok(False, 'objcopy compresses the debug sections', c.stderr.strip()[:300])
        return
    flags = run(['readelf', '-SW', z]).stdout
    for pc in ('0x8010', '0x10a4', '0x1068'):
        plain, z_res = [run(dw + ['locs', f, '--pc', pc, '--context', ctx, '--json'])
                        for f in (attrs, z)]
        a, b = [json.loads(x.stdout or '{}') for x in (plain, z_res)]
        for doc in (a, b):
            doc.pop('binary', None)
        ok(a.get('frames') and a == b and ' C ' in flags,
           'compressed debug sections: the same answer at %s' % pc,
           (z_res.stderr or json.dumps(b))[:800])


def lto_globals(dw, src, work, gdb):
    """progs/lto_[abc].c by gcc -O2 -flto: each global has an early-debug
    DIE (name and type, no location) that the LTO unit's concrete DIE names
    as its DW_AT_abstract_origin (sink's: a definition whose type is its
    declaration's, DW_AT_specification). The variable is the concrete one, listed
    once (as GDB lists it): sink once, one counter per unit (three statics
    of that name), with their values; the globals LTO dropped (shared_a,
    shared_b: no concrete DIE) stay, optimized out."""
    exe = os.path.join(work, 'lto-O2')
    b = run(['gcc', '-g', '-O2', '-flto', '-o', exe] +
            [os.path.join(src, 'lto_%s.c' % k) for k in 'abc'])
    if b.returncode != 0 and 'lto' in b.stderr.lower():
        ok(True, 'gcc -flto # SKIP no LTO here: %s' % b.stderr.strip()[:100])
        return
    ok(b.returncode == 0, 'build lto_[abc].c -O2 -flto', b.stderr)
    if b.returncode:
        return
    r = run(dw + ['locs', '--json', exe])
    try:
        listing = [v for v in json.loads(r.stdout)['vars'] if v['kind'] == 'global']
    except (ValueError, KeyError):
        listing = []
    names = sorted(v['name'] for v in listing)
    ok(names == ['counter'] * 3 + ['shared_a', 'shared_b', 'sink'],
       'lto: locs lists each global once, not its early-debug DIE too', names)
    if not gdb:
        ok(True, 'lto: values # SKIP gdb not installed')
        return
    core, g = core_at_probe(gdb, exe, work)
    ok(os.path.exists(core), 'lto: gdb writes a core at probe', g.stderr[-500:])
    if not os.path.exists(core):
        return
    r = run(dw + ['vars', '--core', core, '--json', exe])
    try:
        res = json.loads(r.stdout)
    except ValueError:
        res = {}
    gl = res.get('globals', [])
    sink = [v for v in gl if v['name'] == 'sink']
    ok(len(sink) == 1 and sink[0]['hex'] == '00000000' and not sink[0]['optimized_out'] and
       sink[0]['type'] == 'volatile int',
       'lto: vars lists sink once, with its value and its type (the concrete DIE\'s abstract '
       'origin names the declaration by DW_AT_specification)', sink)
    counters = sorted(str(v['hex']) for v in gl if v['name'] == 'counter')
    ok(counters == ['0b000000', '16000000', '21000000'],
       'lto: the three static counters 11, 22, 33', counters)
    gone = [v for v in gl if v['name'] in ('shared_a', 'shared_b')]
    ok(len(gone) == 2 and all(v['optimized_out'] for v in gone),
       'lto: the globals LTO dropped are optimized out', gone)
    cw = var_named(frame_named(res, 'c_work'), 'cw')
    ok(cw is not None and cw['hex'] == '6e000000',
       'lto: the inlined c_work\'s cw = 110 (a local through its abstract origin)', cw)


# progs/tls.c and its two libraries: each module's thread-local
# variables, as (the function whose frame has it, or None for a global of
# that file, the variable). BINARY is each file in turn: a library's
# globals are listed when it is BINARY.
TLS_FILES = {'tls': [('run', 'm_local'), (None, 'm_g'), (None, 'm_bss')],
             'libtls_lib.so': [('tls_lib_run', 'l1_local'), (None, 'l1_g'), (None, 'l1_h'),
                               (None, 'l1_bss')],
             'libtls_lib2.so': [('tls_lib2_work', 'l2_local'), (None, 'l2_g'),
                                (None, 'l2_bss')]}


def build_tls(cc, opt, d, src):
    """progs/tls.c with libtls_lib.so and libtls_lib2.so by CC OPT in
    directory D: the executable, or None after a failed check."""
    os.makedirs(d, exist_ok=True)
    lib2, lib, exe = [os.path.join(d, f) for f in ('libtls_lib2.so', 'libtls_lib.so', 'tls')]
    steps = [[cc, '-g', opt, '-shared', '-fPIC', '-o', lib2, os.path.join(src, 'tls_lib2.c')],
             [cc, '-g', opt, '-shared', '-fPIC', '-o', lib, os.path.join(src, 'tls_lib.c'),
              '-L' + d, '-ltls_lib2', '-Wl,-rpath,$ORIGIN'],
             [cc, '-g', opt, '-pthread', '-o', exe, os.path.join(src, 'tls.c'), '-L' + d,
              '-ltls_lib', '-ltls_lib2', '-Wl,-rpath,$ORIGIN']]
    for s in steps:
        b = run(s)
        if b.returncode:
            break
    ok(b.returncode == 0, 'build tls.c and its two libraries, %s %s' % (cc, opt), b.stderr)
    return exe if b.returncode == 0 else None


def gdb_tls(gdb, target, lwp=None, frames=True):
    """GDB's p/x of every TLS_FILES variable (TARGET: GDB's arguments for
    a core or a process; LWP: the thread selected first; FRAMES false:
    the globals only): name -> the value, where GDB gives one."""
    cmd = [gdb, '-nx', '-batch', '-iex', 'set debuginfod enabled off', '-iex',
           'set debug-file-directory ' + NO_DEBUG_DIRS]
    if lwp:
        cmd += ['-ex', 'python [t.switch() for t in gdb.selected_inferior().threads() '
                'if t.ptid[1] == %d]' % lwp]
    for items in TLS_FILES.values():
        for fn, name in items:
            if fn and not frames:
                continue
            if fn:
                cmd += ['-ex', 'frame function ' + fn]
            cmd += ['-ex', 'echo @@%s=' % name, '-ex', 'output/x ' + name, '-ex', 'echo \\n']
    g = run(cmd + target)
    got = {}
    for line in g.stdout.splitlines():
        m = re.match(r'@@(\w+)=(0x[0-9a-f]+)$', line)
        if m:
            got[m.group(1)] = int(m.group(2), 16)
    return got, g


def dwexpr_tls(dw, target, d, frames=True):
    """`dwexpr vars --json` of TARGET (--core CORE or --pid TID) with each
    of TLS_FILES as BINARY: name -> (hex, the variable) (FRAMES false: of
    the globals only), and the failures (exit status, stderr)."""
    got, bad = {}, []
    for f, items in TLS_FILES.items():
        r = run(dw + ['vars', '--json'] + target + [os.path.join(d, f)])
        try:
            res = json.loads(r.stdout)
        except ValueError:
            res = {'frames': []}
        if r.returncode != 0 or 'thread-local' in r.stderr:
            bad.append('%s: rc %d %s' % (f, r.returncode, r.stderr[-400:]))
        for fn, name in items:
            if fn and not frames:
                continue
            v = var_named(frame_named(res, fn), name) if fn else glob(res, name)
            got[name] = (v.get('hex') if v else None, v)
    return got, bad


def compare_tls(tag, dw, gdb, dtarget, gtarget, d, lwp=None, want=None, frames=True):
    """One check: the TLS_FILES variables by dwexpr (DTARGET) and by GDB
    (GTARGET) agree, and have the values WANT gives (name -> int)."""
    theirs, g = gdb_tls(gdb, gtarget, lwp, frames)
    ours, bad = dwexpr_tls(dw, dtarget, d, frames)
    for name, (hx, v) in sorted(ours.items()):
        size = (v or {}).get('bit_size', 0) // 8
        if name not in theirs or not size:
            bad.append('%s: GDB %s, dwexpr %s' % (name, theirs.get(name), describe(v or {})))
            continue
        w = theirs[name].to_bytes(size, 'little').hex()
        if hx != w:
            bad.append('%s = %s, GDB %s (%s)' % (name, hx, w, describe(v)))
        if want and name in want and want[name].to_bytes(size, 'little').hex() != hx:
            bad.append('%s = %s, want %#x' % (name, hx, want[name]))
    n = sum(1 for items in TLS_FILES.values() for fn, _ in items if frames or not fn)
    ok(not bad and len(theirs) == len(ours) == n,
       '%s: thread-local variables of the executable and both libraries as GDB reads them (%s)'
       % (tag, ', '.join(sorted(ours))), '\n'.join(bad) or g.stderr[-600:])


def library_tls(dw, src, work, gdb):
    """Thread-local variables of shared libraries loaded at startup
    (progs/tls.c, tls_lib.c, tls_lib2.c): globals (initialized and not) and
    function-static ones, of the executable and of both libraries, read
    through each module's TLS block where the process stops itself in the
    second library (raise(SIGSTOP)): in a core GDB writes there and in the
    stopped process (--pid), against GDB 13's p/x; and with a second
    thread making the call (values of its own), that thread (--pid TID, and
    the core GDB writes with it selected) and the main thread waiting for
    it. gcc -O0, -O2 and clang -O2 (when installed)."""
    for cc, opt in (('gcc', '-O0'), ('gcc', '-O2'), ('clang', '-O2')):
        tag = 'tls.c %s %s' % (cc, opt)
        if not shutil.which(cc):
            ok(True, '%s # SKIP %s not installed' % (tag, cc))
            continue
        d = os.path.join(work, 'tls-%s%s' % (cc, opt))
        exe = build_tls(cc, opt, d, src)
        if not exe:
            continue
        for args, what in (([], 'one thread'), (['2'], 'second thread')):
            core = os.path.join(d, 'tls%s.core' % ''.join(args))
            if os.path.exists(core):
                os.unlink(core)
            g = run([gdb, '-nx', '-batch', '-iex', 'set debuginfod enabled off', '-iex',
                     'set debug-file-directory ' + NO_DEBUG_DIRS, '-ex', 'run', '-ex',
                     'gcore ' + core, '-ex', 'kill', '--args', exe] + args, cwd=d)
            if not os.path.exists(core):
                ok(False, '%s %s: gcore at the stop' % (tag, what), g.stderr[-500:])
                continue
            # the worker's m_g: 0x3333 + 20 * 16; the main thread's 0x5555
            want = {'m_g': 0x3473} if args else {'m_g': 0x5555 + 16}
            compare_tls('%s %s, core' % (tag, what), dw, gdb, ['--core', core], [exe, core], d,
                        want=want)
            p, state = stop_self(exe, args)
            if p is None:
                ok(False, '%s %s: stops itself' % (tag, what), state)
                continue
            try:
                tids = sorted(int(t) for t in os.listdir('/proc/%d/task' % p.pid))
                if not args:
                    compare_tls('%s %s, --pid' % (tag, what), dw, gdb, ['--pid', str(p.pid)],
                                ['-p', str(p.pid)], d, want=want)
                    continue
                other = [t for t in tids if t != p.pid]
                ok(len(other) == 1, '%s: two threads' % tag, tids)
                if len(other) != 1:
                    continue
                compare_tls('%s %s, --pid TID' % (tag, what), dw, gdb, ['--pid', str(other[0])],
                            ['-p', str(p.pid)], d, lwp=other[0], want=want)
                compare_tls('%s %s, --pid of the main thread' % (tag, what), dw, gdb,
                            ['--pid', str(p.pid)], ['-p', str(p.pid)], d, lwp=p.pid,
                            want={'m_g': 0x5555, 'l1_g': 0x1111}, frames=False)
            finally:
                p.kill()
                p.wait()


# A library the program dlopens (DLOPEN_LIB), stopped in its function
# before that touches its thread-local variables: the thread has not
# allocated the library's TLS block.
DLOPEN_LIB = r'''
__thread int dl_g = 0x77;
int dl_fn(void (*cb)(void))
{
    static __thread int dl_local = 9;
    cb();
    return dl_local + dl_g;
}
'''
DLOPEN_MAIN = r'''
#include <dlfcn.h>
#include <signal.h>
static void stop(void) { raise(SIGSTOP); }
int main(int argc, char **argv)
{
    (void)argc;
    void *h = dlopen(argv[1], RTLD_NOW);
    int (*f)(void (*)(void)) = h ? (int (*)(void (*)(void)))dlsym(h, "dl_fn") : 0;
    return f ? f(stop) == 0 : 2;
}
'''


def dlopen_tls(dw, work, gdb):
    """A dlopen'ed library's thread-local variable (DLOPEN_LIB's dl_local,
    the frame of dl_fn, and its global dl_g) before the thread has used
    its TLS: no block to read (GDB 13: "The inferior has not yet allocated
    storage for thread-local variables"), an error that says so, not an
    address."""
    d = os.path.join(work, 'tls-dlopen')
    os.makedirs(d, exist_ok=True)
    lib, exe = os.path.join(d, 'libdl.so'), os.path.join(d, 'dl')
    b = run(['gcc', '-g', '-O0', '-shared', '-fPIC', '-o', lib, '-x', 'c', '-'], input=DLOPEN_LIB)
    if b.returncode == 0:
        b = run(['gcc', '-g', '-O0', '-o', exe, '-x', 'c', '-', '-ldl'], input=DLOPEN_MAIN)
    ok(b.returncode == 0, 'build a program that dlopens a library with TLS', b.stderr)
    if b.returncode:
        return
    p, state = stop_self(exe, [lib])
    ok(p is not None, 'dlopen: the program stops itself in the library', state)
    if p is None:
        return
    try:
        g = run([gdb, '-nx', '-batch', '-iex', 'set debuginfod enabled off', '-iex',
                 'set debug-file-directory ' + NO_DEBUG_DIRS, '-p', str(p.pid), '-ex',
                 'frame function dl_fn', '-ex', 'output dl_local'])
        r = run(dw + ['vars', '--pid', str(p.pid), '--json', exe])
        rl = run(dw + ['vars', '--pid', str(p.pid), '--json', lib])
    finally:
        p.kill()
        p.wait()
    try:
        v = var_named(frame_named(json.loads(r.stdout), 'dl_fn'), 'dl_local')
        gv = glob(json.loads(rl.stdout), 'dl_g')
    except ValueError:
        v = gv = None
    ok('not yet allocated storage' in g.stdout + g.stderr,
       'dlopen: GDB has no block for dl_local either', g.stdout + g.stderr)
    for what, x, res in (('dl_local (its frame)', v, r), ('dl_g (the library as BINARY)', gv, rl)):
        ok(x is not None and x['hex'] is None and x['result'].get('class') == 'context' and
           'has not allocated the TLS block of ' + os.path.realpath(lib) in res.stderr,
           'dlopen: %s is an error: the thread has not allocated the library\'s TLS block'
           % what, '%s\n%s' % (x, res.stderr))


def rustc_takes_dwarf_version(rustc):
    """Whether RUSTC takes -C dwarf-version (rustc 1.88 and later)."""
    return run([rustc, '-C', 'dwarf-version=4', '--print', 'sysroot']).returncode == 0


def rustcs():
    """The rustcs to check with: PATH's, and an older one without -C
    dwarf-version (Debian 12's 1.63, /usr/bin/rustc, which rustup's in
    PATH may hide) when PATH's takes it: [(label, path)], the label ''
    for PATH's."""
    mine = shutil.which('rustc')
    out = [('', mine)] if mine else []
    if mine and not rustc_takes_dwarf_version(mine):
        return out
    for d in os.environ.get('PATH', '').split(os.pathsep) + ['/usr/bin']:
        c = os.path.join(d or '.', 'rustc')
        if (os.path.isfile(c) and os.access(c, os.X_OK) and
                not rustc_takes_dwarf_version(c)):
            return out + [('-old', c)]
    return out


def rust_variants(dw, src, work, gdb, rustc, label=''):
    """progs/rust_vars.rs by RUSTC -g (opt-level 0), a core at probe: GDB's
    Rust names of the functions of its frames (DW_AT_name in their
    namespaces, a closure's "{closure#0}", a generic function's "<i32>")
    and of its types, and the members of its enums, from the values the
    program sets: the variant the discriminant selects (DWARF 5 5.7.10
    variant parts), alone, with its own members, also through a niche
    (Option<&Point>: no discriminant field of its own, the default
    variant); a zero-sized member (PhantomData) has no bytes, "". LABEL
    names the build ('' for PATH's rustc, '-old' for one older than 1.88,
    Debian 12's 1.63). Returns `dwexpr vars --json` of its core, or None."""
    ver = run([rustc, '--version']).stdout.strip()
    exe = os.path.join(work, 'rust_vars-O0' + label)
    bld = run([rustc, '-g', '-C', 'opt-level=0', '-o', exe, os.path.join(src, 'rust_vars.rs')])
    ok(bld.returncode == 0, 'build rust_vars.rs (%s)' % ver, bld.stderr)
    if bld.returncode:
        return None
    core, g = core_at_probe(gdb, exe, work, 'rust_vars::probe')
    tagname = 'rust_vars.rs' + (' (%s)' % ver if label else '')
    r = run(dw + ['vars', '--core', core, '--json', exe])
    res = json.loads(r.stdout or '{"frames": []}')
    names = [f['function'] for f in res['frames'][:6]]
    ok(names == ['rust_vars::probe', 'rust_vars::generic<i32>', 'rust_vars::inlined_helper',
                 'rust_vars::work', 'rust_vars::main::{closure#0}', 'rust_vars::main'],
       tagname + ': frames named by their DWARF namespaces', names)
    work_f, main_f = frame_named(res, 'rust_vars::work'), frame_named(res, 'rust_vars::main')
    def members(frame, name):
        v = var_named(frame, name) if frame else None
        return {m['name']: m for m in (v or {}).get('members') or []}, v
    def sub(m, name):
        return {x['name']: x.get('hex') for x in m.get(name, {}).get('members') or []}
    s, sv = members(main_f, 's')
    ok(list(s) == ['Rect'] and sub(s, 'Rect') == {'w': '03000000', 'h': '04000000'} and
       (sv or {}).get('type') == 'rust_vars::Shape',
       tagname + ': Shape::Rect { w: 3, h: 4 }: the Rect variant alone', sv)
    c, cv = members(main_f, 'c')
    ok(list(c) == ['Circle'] and sub(c, 'Circle') == {'__0': struct.pack('<d', 1.5).hex()},
       tagname + ': Shape::Circle(1.5)', cv)
    o, ov = members(work_f, 'opt')
    ok(list(o) == ['Some'] and sub(o, 'Some') == {'__0': '0a000000'} and
       (ov or {}).get('type') == 'core::option::Option<i32>',
       tagname + ': opt = Some(10)', ov)
    n, nv = members(work_f, 'niche')
    p = var_named(work_f, 'p') if work_f else None
    ok(list(n) == ['Some'] and nv and nv.get('type') == 'core::option::Option<&rust_vars::Point>' and
       sub(n, 'Some').get('__0') == nv.get('hex'),
       tagname + ': niche = Some(&p): the default variant, through the niche', (nv, p))
    types = {v['name']: v.get('type') for v in (work_f or {}).get('vars', [])}
    want = {'v': '&[u16]', 'name': '&str', 'tup': '(i32, f32, char)', 'arr': '[u8; 4]',
            's': '*mut rust_vars::Shape', 'dynamic': '&dyn rust_vars::Area', 'big': 'u128',
            'flag': 'bool', 'pair': '*mut rust_vars::Pair<i32>'}
    ok(all(types.get(k) == t for k, t in want.items()),
       tagname + ': type names in GDB\'s Rust notation', types)
    vec, _ = members(main_f, 'v')
    def markers(ms):
        # the PhantomData members under MS, at any depth (rustc 1.63's
        # libstd has it in RawVec's ptr, a Unique; later ones in RawVec)
        out = []
        for m in ms or []:
            if m['name'] == '_marker':
                out.append(m)
            out += markers(m.get('members'))
        return out
    marker = markers(vec.get('buf', {}).get('members'))
    ok(vec and marker and all(m.get('hex') == '' and m.get('bit_size') == 0 and
                              m.get('type', '').startswith('core::marker::PhantomData<')
                              for m in marker),
       tagname + ': a zero-sized member (PhantomData) has no bytes', vec)
    return res


def rust_declarations(res, ver):
    """RES: `dwexpr vars` of rust_variants' build by a rustc older than
    1.88 (VER), whose standard library has full DWARF (Debian 12's 1.63).
    A unit of std::panicking::try<isize, ...> only declares the closure
    environment it takes (std::rt::lang_start_internal::{closure_env#2},
    DW_AT_declaration: no size, no members); another unit defines it. As
    GDB completes such a type by its name (opaque type resolution), the
    parameter f has the definition's 16 bytes and its member main, a
    &dyn Fn (before: 0 bits, no bytes)."""
    name = 'std::rt::lang_start_internal::{closure_env#2}'
    f = None
    for fr in res['frames']:
        if fr['function'].startswith('std::panicking::try<isize, '):
            f = var_named(fr, 'f')
            break
    if f is None:
        ok(True, 'rust_vars.rs (%s): a declared type # SKIP no frame of '
           'std::panicking::try<isize, ...> with its parameter f (a standard library '
           'without DWARF)' % ver)
        return
    ms = [m['name'] for m in f.get('members') or []]
    ok(f.get('type') == name and f.get('bit_size') == 128 and ms == ['main'] and
       isinstance(f.get('hex'), str) and len(f['hex']) == 32,
       'rust_vars.rs (%s): a type another unit defines (%s) has its size and members' %
       (ver, name), f)


def rust_symbol_names(dw, work, gdb):
    """The rust_vars.rs build of rust_variants without its DWARF (strip
    -g), a core GDB writes at probe: `dwexpr frames` names the frames from
    the ELF symbols as GDB 13's backtrace names minimal symbols: Rust
    legacy symbols with their escapes decoded and their hash
    ("rust_vars::main::{{closure}}::h8a9d9ec0e320ed53"), compared up to
    the first v0 symbol (the standard library's "std[e28293b1aa0f68bd]::
    rt::lang_start_internal", which dwexpr does not demangle)."""
    exe = os.path.join(work, 'rust_vars-O0')
    if not os.path.exists(exe):
        return
    stripped = os.path.join(work, 'rust_vars-stripped')
    shutil.copy2(exe, stripped)
    st = run(['strip', '-g', stripped])
    syms = run(['nm', stripped]).stdout.split()
    probe = [x for x in syms if x.startswith('_ZN9rust_vars5probe17h')]
    ok(st.returncode == 0 and len(probe) == 1, 'rust_vars.rs stripped: its probe symbol',
       st.stderr or probe)
    if st.returncode or len(probe) != 1:
        return
    core, g = core_at_probe(gdb, stripped, work, probe[0])
    bt = run([gdb, '-nx', '-batch', '-iex', 'set debuginfod enabled off', '-ex', 'bt',
              stripped, core])
    byindex = {}   # (GDB prints frame 0 once on loading the core, then bt)
    for line in bt.stdout.splitlines():
        m = re.match(r'#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+) \(', line)
        if m:
            byindex[int(m.group(1))] = m.group(2)
    theirs = [byindex[i] for i in sorted(byindex)]
    first_v0 = next((i for i, n in enumerate(theirs) if '[' in n), len(theirs))
    theirs = theirs[:first_v0]
    r = run(dw + ['frames', '--core', core, '--json', stripped])
    ours = [f['function'] for f in json.loads(r.stdout or '{"frames": []}')['frames']]
    ok(r.returncode == 0 and len(theirs) >= 6 and ours[:len(theirs)] == theirs and
       any('{{closure}}' in n for n in theirs),
       'rust_vars.rs stripped: frame names from Rust legacy symbols as GDB shows them',
       'dwexpr: %s\ngdb: %s' % (ours, theirs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--dwexpr', required=True)
    ap.add_argument('--src', required=True)
    ap.add_argument('--work', required=True)
    ap.add_argument('--gdb', default='gdb')
    ap.add_argument('--attrs', help='the attrs.S binary (hand-written DWARF)')
    ap.add_argument('--part', default='1/1',
                    help='I/N: run the I-th of N shares of the checks (each share its own '
                         'test, run at once on several cores; give each its own --work)')
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    dw = [os.path.abspath(args.dwexpr)]
    global DWEXPR, NO_DEBUG_DIRS
    DWEXPR = dw[0]
    NO_DEBUG_DIRS = os.path.join(os.path.abspath(args.work), 'no-debug-dirs')
    os.makedirs(NO_DEBUG_DIRS, exist_ok=True)
    if not shutil.which('gcc'):
        print('1..0 # SKIP gcc not installed')
        return 0
    binary = os.path.join(args.work, 'vars-O0')
    b = run(['gcc', '-g', '-O0', '-o', binary, os.path.join(args.src, 'vars.c')])
    ok(b.returncode == 0, 'build vars.c -O0', b.stderr)
    gdb = args.gdb if shutil.which(args.gdb) else None
    src, work = args.src, args.work

    def rust():
        if not rustcs():
            ok(True, 'rust_vars.rs # SKIP rustc not installed')
        for label, rustc in rustcs():
            res = rust_variants(dw, src, work, gdb, rustc, label)
            if res and not rustc_takes_dwarf_version(rustc):
                rust_declarations(res, run([rustc, '--version']).stdout.strip())
        rust_symbol_names(dw, work, gdb)

    # the checks (those that need GDB for their cores apart), in an order
    # that shares them out evenly: --part I/N takes every N-th from the
    # I-th, and for N = 2 the two shares took 52 s each under the
    # sanitizers (each check timed alone, costliest first, alternating)
    checks = {'errors': lambda: (usage_errors(dw, binary), input_errors(dw, binary, work)),
              'attrs': lambda: args.attrs and attrs_entries(dw, os.path.abspath(args.attrs),
                                                            work),
              'live': lambda: live_process(dw, src, work),
              'replaced': lambda: replaced_executable(dw, src, work),
              'container': lambda: container_executable(dw, src, work),
              'libc_declared': lambda: libc_declared_callee(dw, src, work),
              'statics_live': lambda: statics_live(dw, src, work),
              'library_frames': lambda: library_frames(dw, src, work),
              'library_tail_call': lambda: library_tail_call(dw, work),
              'signal_frames': lambda: signal_frame_vars(dw, src, work, gdb),
              'lto_globals': lambda: lto_globals(dw, src, work, gdb)}
    if gdb:
        checks.update({'rust': rust,
                       'core': lambda: core_file(dw, src, work, gdb),
                       'recursion': lambda: recursion_entry_values(dw, src, work, gdb),
                       'threads': lambda: core_threads(dw, src, work, gdb),
                       'nested': lambda: nested_functions(dw, src, work, gdb),
                       'declared_callees': lambda: declared_callees(dw, src, work, gdb),
                       'frame_names': lambda: gdb_frame_names(dw, src, work, gdb),
                       'avx': lambda: avx_vectors(dw, src, work, gdb),
                       'long_doubles': lambda: long_doubles(dw, src, work, gdb),
                       'fortran_sizes': lambda: fortran_sizes(dw, src, work, gdb),
                       'library_tls': lambda: library_tls(dw, src, work, gdb),
                       'dlopen_tls': lambda: dlopen_tls(dw, work, gdb),
                       'vdso': lambda: vdso_frames(dw, src, work, gdb)})
    else:
        checks['no_gdb'] = lambda: ok(True, 'core file checks # SKIP gdb not installed')
    order = ['library_tls', 'signal_frames', 'core', 'rust', 'threads', 'errors', 'recursion',
             'frame_names', 'nested', 'library_frames', 'libc_declared', 'long_doubles',
             'declared_callees', 'attrs', 'fortran_sizes', 'lto_globals', 'dlopen_tls', 'avx',
             'library_tail_call', 'live', 'statics_live', 'replaced', 'vdso', 'container',
             'no_gdb']
    assert set(checks) <= set(order), set(checks) - set(order)
    checks = [checks[k] for k in order if k in checks]
    share, shares = (int(x) for x in args.part.split('/'))
    for i, check in enumerate(checks):
        if i % shares == share - 1:
            check()
    print('1..%d' % N)
    return 1 if FAILED else 0


if __name__ == '__main__':
    sys.exit(main())
