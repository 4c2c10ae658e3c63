// platform/platform_infos_def.h - fe::PlatFormInfos, the SoC facts host
// code receives (TilingContext::GetPlatformInfo), filled by ascendrtc from
// the simulated NPU the op will run on.  Tiling functions read it through
// platform_ascendc::PlatformAscendC or GetPlatformRes(label, key, value);
// a label/key the simulator has no fact for answers false (and "").
#ifndef ARC_HOST_PLATFORM_PLATFORM_INFOS_DEF_H
#define ARC_HOST_PLATFORM_PLATFORM_INFOS_DEF_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "platform/platform_info_def.h"  // std::map, std::vector, std::string at global scope

namespace fe {

enum class LocalMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };

class PlatFormInfos {
public:
    std::string soc_version;        // e.g. "Ascend910B1"
    std::string short_soc_version;  // e.g. "Ascend910B"
    uint32_t aic_num = 0, aiv_num = 0, npu_arch = 0;
    uint64_t ub_size = 0, l1_size = 0, l0a_size = 0, l0b_size = 0, l0c_size = 0, l2_size = 0, hbm_size = 0;
    uint32_t lib_api_workspace = 0;
    bool split_arch = true;  // separate cube (AIC) and vector (AIV) cores

    bool Init() { return true; }
    uint32_t GetCoreNum() const { return split_arch ? aiv_num : aic_num; }
    void SetCoreNum(uint32_t n) { (split_arch ? aiv_num : aic_num) = n; }
    uint32_t GetCoreNumByType(const std::string &type) const { return type == "VectorCore" || type == "AiV" ? aiv_num : aic_num; }
    void GetLocalMemSize(const LocalMemType &t, uint64_t &size) const
    {
        switch (t) {
        case LocalMemType::UB: size = ub_size; break;
        case LocalMemType::L1: size = l1_size; break;
        case LocalMemType::L0_A: size = l0a_size; break;
        case LocalMemType::L0_B: size = l0b_size; break;
        case LocalMemType::L0_C: size = l0c_size; break;
        case LocalMemType::L2: size = l2_size; break;
        case LocalMemType::HBM: size = hbm_size; break;
        default: size = 0; break;
        }
    }
    bool GetPlatformRes(const std::string &label, const std::string &key, std::string &val)
    {
        auto it = extra_.find(label + "/" + key);
        if (it != extra_.end()) {
            val = it->second;
            return true;
        }
        val = fact(label, key);
        return !val.empty();
    }
    bool GetPlatformResWithLock(const std::string &label, const std::string &key, std::string &val)
    {
        return GetPlatformRes(label, key, val);
    }
    void SetPlatformRes(const std::string &label, std::map<std::string, std::string> &res)
    {
        for (auto &kv : res)
            extra_[label + "/" + kv.first] = kv.second;
    }
    void SetPlatformResWithLock(const std::string &label, std::map<std::string, std::string> &res)
    {
        SetPlatformRes(label, res);
    }
    void SetFixPipeDtypeMap(const std::map<std::string, std::vector<std::string>> &) {}

private:
    std::string fact(const std::string &label, const std::string &key) const
    {
        if (label == "version" && (key == "SoC_version" || key == "Soc_version"))
            return soc_version;
        if (label == "version" && key == "Short_SoC_version")
            return short_soc_version;
        if (label == "version" && key == "NpuArch")
            return std::to_string(npu_arch);
        if (label == "SoCInfo" && key == "ai_core_cnt")
            return std::to_string(aic_num);
        if (label == "SoCInfo" && key == "vector_core_cnt")
            return std::to_string(aiv_num);
        if (label == "SoCInfo" && key == "cube_core_cnt")
            return std::to_string(aic_num);
        if (label == "AICoreSpec" && key == "ubblock_size")
            return "32";  // UB is addressed in 32-byte blocks
        if (label == "AICoreSpec" && key == "ub_size")
            return std::to_string(ub_size);
        if (label == "AICoreSpec" && key == "l1_size")
            return std::to_string(l1_size);
        return "";
    }
    std::map<std::string, std::string> extra_;
};

// The compile-time options some host code reads beside the platform.
struct OptionalInfos {
    std::string soc_version, core_type, ai_core_num;
    void Init(const std::string &soc, const std::string &core, uint32_t n, const std::string &)
    {
        soc_version = soc, core_type = core, ai_core_num = std::to_string(n);
    }
};

} // namespace fe

#include <vector>

#endif
