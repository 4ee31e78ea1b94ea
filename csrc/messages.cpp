#include "messages.h"

#include <algorithm>
#include <utility>
#include <vector>

using namespace llvm;

namespace llvmplug {

std::string closestNames(StringRef name, ArrayRef<StringRef> candidates) {
  std::vector<std::pair<unsigned, StringRef>> scored;
  unsigned limit = std::max<unsigned>(2, name.size() / 3);
  for (StringRef candidate : candidates) {
    unsigned distance = name.edit_distance(candidate, /*AllowReplacements=*/true, limit + 1);
    if (distance <= limit && distance < name.size()) // not every name as short as a typo of "x"
      scored.emplace_back(distance, candidate);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  std::string text;
  for (size_t i = 0; i < scored.size() && i < 3; ++i)
    text += (i ? ", " : "; did you mean ") + scored[i].second.str();
  return text.empty() ? text : text + "?";
}

std::string policyRefusal(StringRef what, StringRef why) {
  return what.str() + " is refused by the safe policy" +
         (why.empty() ? std::string() : " (" + why.str() + ")") +
         "; it is allowed only with the \"all\" policy, for trusted callers";
}

} // namespace llvmplug
