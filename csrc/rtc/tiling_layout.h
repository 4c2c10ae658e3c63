// tiling_layout.h - the plain C++ tiling structs of an op's host code
// (every T of a gert::TilingContext::GetTilingData<T>() the host code
// instantiates), described field by field as clang laid them out, in the
// JSON form host_describe.h gives the tiling DSL's classes; the host code
// reports them with the op definition (plain_classes), so Python decodes
// the tiling bytes from the compiler's layout, never from the sources' text.
#ifndef ARC_RTC_TILING_LAYOUT_H_
#define ARC_RTC_TILING_LAYOUT_H_

#include <map>
#include <memory>
#include <string>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <clang/AST/ASTConsumer.h>
#include <llvm/IR/Module.h>
#pragma GCC diagnostic pop

namespace arc_rtc {

// Layouts by the struct's type as clang prints it, one JSON object each.
using TilingLayouts = std::map<std::string, std::string>;

// A consumer that, at the end of a translation unit, adds to *out the
// layout of every struct the unit's GetTilingData<T>() instantiations name.
std::unique_ptr<clang::ASTConsumer> tiling_layout_consumer(TilingLayouts *out);

// Defines the linked host module's __arc_plain_tiling_classes (the driver
// declares it): the layouts as one JSON array.
void define_tiling_layouts(llvm::Module &m, const TilingLayouts &layouts);

} // namespace arc_rtc

#endif
