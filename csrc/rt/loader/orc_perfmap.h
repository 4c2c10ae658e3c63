/* orc_perfmap.h - perf's JIT symbol map for loaded kernels (C++ only,
 * used by orc_loader.cpp when it creates LLJIT). */
#ifndef SIM_ORC_PERFMAP_H_
#define SIM_ORC_PERFMAP_H_

namespace llvm {
namespace orc {
class ObjectLayer;
}
}  // namespace llvm

/* Whether ASCENDRTC_PERF_MAP asks for /tmp/perf-<pid>.map. */
int sim_orc_perfmap_wanted(void);
/* Write every function of every object the layer links from now on to
 * /tmp/perf-<pid>.map (a no-op for a layer that is not JITLink's). */
void sim_orc_perfmap_attach(llvm::orc::ObjectLayer &layer);

#endif /* SIM_ORC_PERFMAP_H_ */
