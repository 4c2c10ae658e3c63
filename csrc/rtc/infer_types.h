/* infer_types.h - element types of a kernel's byte-pointer parameters
 * (GM_ADDR, uint8_t *, void *) from the casts its body applies to them, so
 * those parameters can be checked at launch like `__gm__ float *` ones. */
#ifndef ARC_RTC_INFER_TYPES_H_
#define ARC_RTC_INFER_TYPES_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
}

namespace arc_rtc {

/* Per kernel (qualified name; a template kernel's instances by their
 * mangled names): per parameter, the element C type its casts
 * agree on ("half", "float", ... as meta.h's ARC_SCALAR_TYPES spells it), or
 * "" where the parameter is typed already, is not cast, or is cast to more
 * than one type or to a type that is not a scalar. */
using InferredTypes = std::map<std::string, std::vector<std::string>>;

/* An AST consumer that fills `out` from each function definition of the
 * translation unit itself (not the precompiled device API). */
std::unique_ptr<clang::ASTConsumer> make_type_inference(InferredTypes &out);

} // namespace arc_rtc

#endif
