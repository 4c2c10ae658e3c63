// arc/tuning_bank_key_unit.h - the tuning bank-key registries that ops-nn's
// register/tuning_bank_key_registry.h declares and CANN's register library
// defines: REGISTER_OP_BANK_KEY_* record, by op type, the function that
// turns a tiling context into a knowledge-bank key and the ones that write
// and read such a key as text (V1 and V2 alike); the info of an op type is
// made on its first registration.  One library unit includes this
// (ascendrtc/_op_library.py HOST_API_UNITS).  The knowledge bank itself
// (QueryBank) is in CANN's legacy library, which ascendrtc does not have.
#ifndef ARC_TUNING_BANK_KEY_UNIT_H
#define ARC_TUNING_BANK_KEY_UNIT_H

#include "register/tuning_bank_key_registry.h"

namespace tuningtiling {

#define ARC_BANK_KEY_INFO(Info, V, Convert, Parse, Load)                                        \
    Info::Info(const ge::AscendString &optype) : optype##V##_(optype) {}                         \
    void Info::SetOpConvertFunc##V(const Convert &f) { convert_func##V##_ = f; }                \
    void Info::SetOpParseFunc##V(const Parse &f) { parse_func##V##_ = f; }                      \
    void Info::SetOpLoadFunc##V(const Load &f) { load_func##V##_ = f; }                         \
    const Convert &Info::GetBankKeyConvertFunc##V() const { return convert_func##V##_; }        \
    const Parse &Info::GetBankKeyParseFunc##V() const { return parse_func##V##_; }              \
    const Load &Info::GetBankKeyLoadFunc##V() const { return load_func##V##_; }
ARC_BANK_KEY_INFO(OpBankKeyFuncInfo, , OpBankKeyConvertFun, OpBankParseFun, OpBankLoadFun)
ARC_BANK_KEY_INFO(OpBankKeyFuncInfoV2, V2, OpBankKeyConvertFunV2, OpBankParseFunV2, OpBankLoadFunV2)
#undef ARC_BANK_KEY_INFO

#define ARC_BANK_KEY_REGISTRY(Registry, Info, V, Convert, Parse, Load)                          \
    std::unordered_map<ge::AscendString, Info> &Registry::RegisteredOpFuncInfo##V()             \
    {                                                                                           \
        static std::unordered_map<ge::AscendString, Info> by_op;                                \
        return by_op;                                                                           \
    }                                                                                           \
    Registry::Registry(const ge::AscendString &optype, const Convert &convert)                  \
    {                                                                                           \
        RegisteredOpFuncInfo##V().emplace(optype, Info(optype)).first->second.SetOpConvertFunc##V(convert); \
    }                                                                                           \
    Registry::Registry(const ge::AscendString &optype, const Parse &parse, const Load &load)    \
    {                                                                                           \
        Info &info = RegisteredOpFuncInfo##V().emplace(optype, Info(optype)).first->second;     \
        info.SetOpParseFunc##V(parse);                                                          \
        info.SetOpLoadFunc##V(load);                                                            \
    }
ARC_BANK_KEY_REGISTRY(OpBankKeyFuncRegistry, OpBankKeyFuncInfo, , OpBankKeyConvertFun, OpBankParseFun, OpBankLoadFun)
ARC_BANK_KEY_REGISTRY(OpBankKeyFuncRegistryV2, OpBankKeyFuncInfoV2, V2, OpBankKeyConvertFunV2, OpBankParseFunV2,
                      OpBankLoadFunV2)
#undef ARC_BANK_KEY_REGISTRY

} // namespace tuningtiling

#endif
