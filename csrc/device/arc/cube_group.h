/* cube_group.h - cube resource groups (CubeResGroupHandle, CreateCubeResGroup,
 * KfcWorkspace, CubeGroupMsgHead/CubeMsgState) under their documented names
 * and signatures, so kernels that use them compile; running them is an
 * error at the point of use.
 *
 * Not modelled: the AIV->AIC message queues of a group (each AIV posts
 * 64-byte messages into a 4-deep queue in GM; the group's AIC blocks poll
 * the queues and run the user's callback).  The queue layout in the
 * workspace and the AIC's polling order are internal to CANN and not in
 * the public facts, so ascendrtc does not guess them: CreateCubeResGroup,
 * the handle's constructor and every member trap with a message that names
 * what is missing.  The enum values below are assumed (the documentation
 * names the states, not their numbers); kernels only compare them. */
#ifndef ARC_CUBE_GROUP_H_
#define ARC_CUBE_GROUP_H_

#include "arc/state.h"
#include "arc/group_barrier.h"
#include "arc/sync.h"

namespace AscendC {

/* IsEqual<a, b>::Type is void when a == b (selects a callback by funcID). */
template <int32_t A, int32_t B> struct IsEqual {};
template <int32_t A> struct IsEqual<A, A> { using Type = void; };

/* The state word at the head of every message. */
enum class CubeMsgState : uint8_t { FREE = 0, VALID, QUIT, FAKE };
struct CubeGroupMsgHead {
    CubeMsgState msgState;
    uint8_t aivID;
};

namespace __cube_group {
[[noreturn]] inline void not_modelled(const char *api)
{
    __arc_trap(api, "cube resource groups (CubeResGroupHandle: AIV->AIC message queues served by a group's AIC "
                    "blocks) are not modelled by ascendrtc's simulated NPU; the kernel compiles as on CANN, "
                    "running this call is the error");
    __builtin_unreachable();
}
} // namespace __cube_group

/* The message area of a kernel's groups in the workspace. */
class KfcWorkspace {
public:
    __aicore__ inline explicit KfcWorkspace(GM_ADDR workspace) : ws_(workspace) {}
    __aicore__ inline GM_ADDR GetWorkspace() const { return ws_; }

private:
    GM_ADDR ws_;
};

template <typename CubeMsgType> class CubeResGroupHandle {
public:
    __aicore__ inline CubeResGroupHandle() = default;
    __aicore__ inline CubeResGroupHandle(GM_ADDR, uint8_t, uint8_t, uint8_t, uint8_t)
    {
        __cube_group::not_modelled("CubeResGroupHandle");
    }
    __aicore__ inline void AssignQueue(uint8_t) { __cube_group::not_modelled("CubeResGroupHandle::AssignQueue"); }
    /* A template as in CANN (kernels call handle.template AllocMessage()); its
     * parameter is not documented, so it takes none that a call must give. */
    template <int = 0> __aicore__ inline __gm__ CubeMsgType *AllocMessage()
    {
        __cube_group::not_modelled("CubeResGroupHandle::AllocMessage");
    }
    template <PipeMode pipeMode = PipeMode::SCALAR_MODE>
    __aicore__ inline uint16_t PostMessage(__gm__ CubeMsgType *, CubeMsgType &)
    {
        __cube_group::not_modelled("CubeResGroupHandle::PostMessage");
    }
    __aicore__ inline uint16_t PostFakeMsg(__gm__ CubeMsgType *)
    {
        __cube_group::not_modelled("CubeResGroupHandle::PostFakeMsg");
    }
    template <bool sync = true> __aicore__ inline bool Wait(uint16_t)
    {
        __cube_group::not_modelled("CubeResGroupHandle::Wait");
    }
    __aicore__ inline void SetQuit(__gm__ CubeMsgType *) { __cube_group::not_modelled("CubeResGroupHandle::SetQuit"); }
    __aicore__ inline uint16_t FreeMessage(__gm__ CubeMsgType *)
    {
        __cube_group::not_modelled("CubeResGroupHandle::FreeMessage");
    }
    __aicore__ inline uint16_t FreeMessage(__gm__ CubeMsgType *, CubeMsgState)
    {
        __cube_group::not_modelled("CubeResGroupHandle::FreeMessage");
    }
    __aicore__ inline void SetSkipMsg(uint8_t) { __cube_group::not_modelled("CubeResGroupHandle::SetSkipMsg"); }
};

/* Creates a group of blockSize / 2 AIC blocks from AIV index blockStart with
 * msgQueueSize queues; CallBack<MatmulApiType, CubeMsgType> serves them. */
template <int groupID, class MatmulApiType, template <class, class> class CallBack, typename CubeMsgType>
__aicore__ inline CubeResGroupHandle<CubeMsgType> CreateCubeResGroup(KfcWorkspace &, uint8_t, uint8_t, uint8_t,
                                                                     GM_ADDR)
{
    __cube_group::not_modelled("CreateCubeResGroup");
}

} // namespace AscendC

#endif /* ARC_CUBE_GROUP_H_ */
