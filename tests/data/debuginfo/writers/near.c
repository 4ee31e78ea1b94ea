/* Near misses of csrc/llvm_bugs/debuginfo_writers.cpp's rules, as clang-19 emits them:
   btf_decl_tag and btf_type_tag annotations, a VLA (a local variable whose
   array count is another local variable). */
#define __tag1 __attribute__((btf_decl_tag("tag1")))
#define __tag2 __attribute__((btf_decl_tag("tag2")))
#define __tt __attribute__((btf_type_tag("tt")))
struct t1 { int a __tag1 __tag2; } __tag1 __tag2;
int g1 __tag1 __tag2;
int __tt *gp;
typedef int myint __tag1;
myint g2;
int __tag1 __tag2 foo(struct t1 *arg __tag1 __tag2) { return arg->a; }
#ifndef __bpf__ /* BPF has no dynamic stack allocation */
int vla(int n) {
  int a[n];
  for (int i = 0; i < n; i++)
    a[i] = i;
  return a[n - 1] + g1 + g2 + (gp ? *gp : 0);
}
#endif
