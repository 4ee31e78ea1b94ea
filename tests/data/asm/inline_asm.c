/* Inline asm as C programs write it (kernel, libc, runtime and codec idioms), for
   tests/test_asm_allowlist.py: the safe policy must compile clang's IR of it to the same bytes
   as policy="all". The IR beside it was made with
     clang-19 --target=TRIPLE -ffreestanding -fasm-blocks -O2 -S -emit-llvm inline_asm.c -o TRIPLE.ll
   (-fasm-blocks: MSVC-style __asm blocks, which clang turns into Intel-dialect inline asm). */
#include <stdint.h>

#define barrier() __asm__ __volatile__("" ::: "memory")

uint32_t shared;
const char banner[] __attribute__((used)) = "inline asm";

#if defined(__x86_64__) || defined(__i386__)
void cpuid(uint32_t leaf, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d) {
  __asm__ __volatile__("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "0"(leaf), "2"(0));
}
uint64_t rdtsc(void) {
  uint32_t lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return ((uint64_t)hi << 32) | lo;
}
uint32_t cas(uint32_t *p, uint32_t old, uint32_t new_) {
  uint32_t prev;
  __asm__ __volatile__("lock; cmpxchgl %2, %1" : "=a"(prev), "+m"(*p) : "r"(new_), "0"(old) : "memory");
  return prev;
}
uint32_t bswap(uint32_t x) {
  __asm__("bswap %0" : "+r"(x));
  return x;
}
void zero(void *p, unsigned long n) {
  __asm__ __volatile__("rep stosb" : "+D"(p), "+c"(n) : "a"(0) : "memory");
}
void relax(void) { __asm__ __volatile__("pause" ::: "memory"); }
void intel_block(void) {
  __asm__ __volatile__(".intel_syntax noprefix\n\tmov eax, 1\n\tlea eax, [eax + 1]\n\t.att_syntax prefix" ::: "eax");
}
#if defined(_MSC_VER)
int ms_block(int x) {
  __asm {
    mov eax, x
    add eax, 0x10
    shl eax, 2
    mov x, eax
  }
  return x;
}
#endif
void table_entry(void) {
  __asm__ __volatile__("1:\n\tnop\n"
                       ".pushsection .rodata.entries, \"a\"\n\t.p2align 2\n\t.long 1b - .\n.popsection");
}
int cmp_flags(long a, long b) {
  char r;
  __asm__("cmp %2, %1\n\tsetl %0" : "=q"(r) : "r"(a), "r"(b) : "cc");
  return r;
}
#if defined(__x86_64__)
int goto_asm(int x) {
  __asm__ goto("testl %0, %0\n\tjne %l[nonzero]" : : "r"(x) : "cc" : nonzero);
  return 0;
nonzero:
  return 1;
}
#endif
#elif defined(__aarch64__)
uint64_t counter(void) {
  uint64_t v;
  __asm__ __volatile__("mrs %0, cntvct_el0" : "=r"(v));
  return v;
}
void fences(void) { __asm__ __volatile__("dmb ish\n\tisb\n\tyield" ::: "memory"); }
uint32_t load_acquire(uint32_t *p) {
  uint32_t v;
  __asm__ __volatile__("ldar %w0, [%1]" : "=r"(v) : "r"(p) : "memory");
  return v;
}
uint32_t crc(uint32_t c, uint64_t d) {
  __asm__(".arch_extension crc\n\tcrc32cx %w0, %w0, %1" : "+r"(c) : "r"(d));
  return c;
}
#elif defined(__arm__)
void fences(void) { __asm__ __volatile__("dmb ish" ::: "memory"); }
uint32_t tls(void) {
  uint32_t v;
  __asm__("mrc p15, 0, %0, c13, c0, 3" : "=r"(v));
  return v;
}
uint32_t add4(uint32_t x) {
  __asm__(".syntax unified\n\tadds %0, %0, #4" : "+r"(x) : : "cc");
  return x;
}
#elif defined(__riscv)
uint64_t cycles(void) {
  uint64_t v;
  __asm__ __volatile__("rdcycle %0" : "=r"(v));
  return v;
}
void fences(void) {
  __asm__ __volatile__(".option push\n\t.option norvc\n\tfence rw, rw\n\t.option pop" ::: "memory");
}
#elif defined(__powerpc__)
void fences(void) { __asm__ __volatile__("sync" ::: "memory"); }
uint64_t timebase(void) {
  uint64_t v;
  __asm__ __volatile__("mftb %0" : "=r"(v));
  return v;
}
#elif defined(__mips__)
void fences(void) { __asm__ __volatile__(".set push\n\t.set noreorder\n\tsync\n\t.set pop" ::: "memory"); }
#endif

void use(void) {
  barrier();
  shared++;
  barrier();
}
