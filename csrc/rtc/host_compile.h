// host_compile.h - one compile of op host code (an op's op_host files, or
// a library unit) with the in-process clang, to LLVM IR: the project's
// files served from memory under kProjRoot, the clean-room host API
// (csrc/host_api, and the device headers the host shares) under kHostRoot,
// the rest (libstdc++, opbase, the op library) from disk.
#ifndef ARC_RTC_HOST_COMPILE_H_
#define ARC_RTC_HOST_COMPILE_H_

#include <memory>
#include <string>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#pragma GCC diagnostic pop

#include "tiling_layout.h"

namespace arc_host_jit {

extern const char *const kHostRoot;  // "/arc/host/include"
extern const char *const kProjRoot;  // "/arc/op"

// Serves the host headers from memory; once, before the first compile.
void init_host_headers();

// "/arc/op/op_host/x.cpp:3:1: error" -> "op_host/x.cpp:3:1: error".
std::string strip_roots(std::string log);

// Compiles `main_text` (as kProjRoot/main_name) with the project's files
// and `opts`; the module, or null with clang's diagnostics in `log`.
// `deps` (where given) receives every file the compile read, system
// headers included.  *cancel set stops it (Ctrl-C).  With `layouts`, the
// plain tiling structs it instantiates GetTilingData<T>() for are
// described there (tiling_layout.h).
std::unique_ptr<llvm::Module> compile(const std::string &main_text, int nfiles, const char **paths,
                                      const char **texts, const std::vector<std::string> &opts,
                                      llvm::LLVMContext &ctx, std::string &log, const int *cancel,
                                      std::vector<std::string> *deps = nullptr,
                                      const std::string &main_name = "__arc_host_main.cpp",
                                      arc_rtc::TilingLayouts *layouts = nullptr);

} // namespace arc_host_jit

#endif
