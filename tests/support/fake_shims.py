"""Tiny C libraries that speak (parts of) llvmplug's ABI, built with ``cc`` by the tests.

They stand in for a shim only where a real one cannot be made to misbehave
on demand: a library of another ABI version, and a copy whose shutdown
blocks on a lock an unwound frame left held.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

VERSION_ONLY = r"""
unsigned llvmplug_abi_version(void) { return VERSION; }
const char *llvmplug_build_id(void) { return "0000000000000000000000000000000000000000000000000000000000000000"; }
int llvmplug_shutdown(void) { return 0; }
"""

# Every compile "fails fatally" with a lock left held, as a fatal error that
# unwinds through LLVM frames built without exceptions does; shutdown then
# takes that lock, so it blocks for ever on any other thread.
HELD_LOCK = r"""
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
typedef struct { int status; char message[64]; } result;
static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static int make(int status, const char *message, result **out) {
  result *r = calloc(1, sizeof *r);
  r->status = status;
  strcpy(r->message, message);
  *out = r;
  return status;
}
unsigned llvmplug_abi_version(void) { return 0x00020002; }
const char *llvmplug_build_id(void) { return "1111111111111111111111111111111111111111111111111111111111111111"; }
int llvmplug_set_sandbox(int confine, result **out) { (void)confine; return make(0, "", out); }
int llvmplug_set_policy(int policy, result **out) { (void)policy; return make(0, "", out); }
int llvmplug_compile(const void *m, unsigned long n, const char *t, const char *f, unsigned p, result **out) {
  (void)m; (void)n; (void)t; (void)f; (void)p;
  pthread_mutex_lock(&held);
  return make(7, "LLVM ERROR: fatal, with a lock left held", out);
}
int llvmplug_shutdown(void) { pthread_mutex_lock(&held); pthread_mutex_unlock(&held); return 0; }
int llvmplug_result_status(const result *r) { return r ? r->status : 1; }
unsigned long llvmplug_result_part_count(const result *r) { (void)r; return 0; }
const char *llvmplug_result_part_data(const result *r, unsigned long i) { (void)r; (void)i; return 0; }
unsigned long llvmplug_result_part_size(const result *r, unsigned long i) { (void)r; (void)i; return 0; }
const char *llvmplug_result_message(const result *r) { return r ? r->message : ""; }
void llvmplug_result_free(result *r) { free(r); }
"""


def build(cc: str, directory: Path, name: str, source: str, *defines: str) -> Path:
    """Compile ``source`` into ``directory/lib<name>.so`` and return its path."""
    c_file = directory / f"{name}.c"
    c_file.write_text(source)
    library = directory / f"lib{name}.so"
    subprocess.run([cc, "-shared", "-fPIC", "-pthread", *defines, "-o", str(library), str(c_file)], check=True)
    return library
