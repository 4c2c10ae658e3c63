// host_ctors.h - an op's host code's static initialisers and destructor
// functions, moved out of llvm.global_ctors/_dtors into functions that
// ascendrtc_host_op_init/_fini run contained (csrc/rtc/host_op.cpp): the
// op's own, and (constructors only) the library units' it links.
#ifndef ARC_RTC_HOST_CTORS_H_
#define ARC_RTC_HOST_CTORS_H_

#include <string>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/IR/Module.h>
#pragma GCC diagnostic pop

namespace arc_host_jit {

// A library unit an op links: id (a hash of the unit's text and options,
// the same in every process, so an op's kept object names it) names its
// __arc_unit_<id>_ctors and __arc_unit_<id>_state in the library's
// JITDylib; path is what a failure of its static initialisers names.
struct UnitRef {
    std::string id;
    std::string path;
};

bool move_ctors(llvm::Module &m, const std::string &name, const std::vector<UnitRef> &units, std::string &log);

// llvm.global_dtors (reverse priority order) becomes the body of
// __arc_host_dtors, which arc_host_fini runs contained when the code is
// unloaded (ascendrtc_host_op_fini); a library unit's are dropped (units
// live as long as the process).
bool move_dtors(llvm::Module &m, bool unit, std::string &log);

} // namespace arc_host_jit

#endif
