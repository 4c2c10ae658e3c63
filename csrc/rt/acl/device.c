/* device.c - the one simulated device (id 0) and its SoC description.
 * aclrtSetDevice is optional: runtime calls work on device 0 without it. */
#include "rt/rt_internal.h"

aclError sim_check_device(int64_t id, const char *api)
{
    if (id != 0)
        return sim_err(ACL_ERROR_RT_INVALID_DEVICEID, api,
                       "device id %lld does not exist: the simulated NPU has one device, id 0",
                       (long long)id);
    return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId)
{
    aclError rc = sim_rt_enter("aclrtSetDevice");
    return rc ? rc : sim_check_device(deviceId, "aclrtSetDevice");
}

/* Waits for the device's queued work; streams and memory stay valid. */
aclError aclrtResetDevice(int32_t deviceId)
{
    aclError rc = sim_rt_enter("aclrtResetDevice");
    if (!rc)
        rc = sim_check_device(deviceId, "aclrtResetDevice");
    return rc ? rc : sim_stream_sync_all("aclrtResetDevice");
}

aclError aclrtGetDevice(int32_t *deviceId)
{
    aclError rc = sim_rt_enter("aclrtGetDevice");
    if (rc)
        return rc;
    if (!deviceId)
        return sim_err(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice", "deviceId is NULL");
    *deviceId = 0;
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t *count)
{
    aclError rc = sim_rt_enter("aclrtGetDeviceCount");
    if (rc)
        return rc;
    if (!count)
        return sim_err(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount", "count is NULL");
    *count = 1;
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice(void)
{
    aclError rc = sim_rt_enter("aclrtSynchronizeDevice");
    return rc ? rc : sim_stream_sync_all("aclrtSynchronizeDevice");
}

/* "Ascend910B1" (dav-2201) unless ASCENDRTC_SIM_SOC names another SoC. */
const char *aclrtGetSocName(void)
{
    return sim_arch_device()->soc;
}

/* The base of the inter-core sync flags the NPU keeps in GM, which a kernel
 * passes to SetSyncBaseAddr (CATLASS) or reads a word of: a new zeroed
 * 64-byte device allocation; the simulated cores synchronise without it. */
aclError aclrtGetHardwareSyncAddr(void **addr)
{
    const char *api = "aclrtGetHardwareSyncAddr";
    aclError rc = sim_rt_enter(api);
    if (rc)
        return rc;
    if (!addr)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "addr is NULL");
    if ((rc = aclrtMalloc(addr, 64, ACL_MEM_MALLOC_HUGE_FIRST)))
        return rc;
    return aclrtMemset(*addr, 64, 0, 64);
}

aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value)
{
    const char *api = "aclrtGetDeviceInfo";
    aclError rc = sim_rt_enter(api);
    if (!rc)
        rc = sim_check_device(deviceId, api);
    if (rc)
        return rc;
    if (!value)
        return sim_err(ACL_ERROR_INVALID_PARAM, api, "value is NULL");
    const sim_arch *a = sim_arch_device();
    int64_t v;
    switch ((int)attr) {
    case ACL_DEV_ATTR_AICPU_CORE_NUM: v = a->aicpu_cores; break;
    case ACL_DEV_ATTR_AICORE_CORE_NUM: v = a->cube_cores; break; /* AI Cores = AIC count (1:2 split) */
    case ACL_DEV_ATTR_CUBE_CORE_NUM: v = a->cube_cores; break;
    case ACL_DEV_ATTR_VECTOR_CORE_NUM: v = a->vector_cores; break;
    case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE: v = a->hbm_bytes; break;
    case ACL_DEV_ATTR_L2_CACHE_SIZE: v = a->l2_bytes; break;
    case ACL_DEV_ATTR_NPU_ARCH: v = a->num; break;
    case ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE: v = a->ubuf_attr; break; /* 0 except on 950 */
    case ACL_DEV_ATTR_WARP_SIZE:
    case ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE:
        if (!a->warp_size)
            return sim_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, api,
                           "attribute %d (SIMT) is not supported on %s (%s); it exists on dav-3510",
                           (int)attr, a->soc, a->arch);
        v = attr == ACL_DEV_ATTR_WARP_SIZE ? a->warp_size : a->max_threads_per_vector_core;
        break;
    default:
        return sim_err(ACL_ERROR_INVALID_PARAM, api,
                       "unknown attribute %d (valid: 1, 101, 102, 201, 202, 203, 204, 301, 302, 601)", (int)attr);
    }
    *value = v;
    return ACL_SUCCESS;
}
