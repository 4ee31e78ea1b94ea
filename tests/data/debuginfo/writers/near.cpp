// Near misses of csrc/llvm_bugs/debuginfo_writers.cpp's rules, as clang++-19 emits them.
namespace ns { int nv = 1; int nf(int x) { return x + 1; } struct T { int t; }; }
using namespace ns;
using ns::nf;
using ns::T;
template <typename X, int N, template <typename> class W, typename... P> struct S { X x[N]; };
template <typename X> struct Wrap { X w; };
template <typename X> using Alias = Wrap<X>;
struct Base { virtual ~Base() {} int b; };
struct D : virtual Base {
  static const int sm = 3;
  static int sv;
  friend struct Wrap<int>;
  union { int u1; float u2; };
  const volatile int cv;
  int bits : 3;
  D() : cv(0), bits(1) {}
};
int D::sv = 2;
typedef void V;
typedef int vec4 __attribute__((vector_size(16)));
enum class E : short { A = -1, B = 2 };
int D::*pm = nullptr;
int (D::*pmf)(int) = nullptr;
S<int, 3, Wrap, char, long> s;
Alias<int> al;
V *vp;
vec4 gv;
E ge;
int use(int n) {
  D d;
  vec4 v = {1, 2, 3, 4};
  Alias<char> a{};
  int arr[4] = {};
  return d.bits + v[1] + a.w + arr[n & 3] + nf(nv) + T{1}.t + (int)ge + D::sm + D::sv;
}
