// arc/tuning_tiling_unit.h - the tuning-tiling class registry that ops-nn's
// register/tuning_tiling_registry.h declares and CANN's register library
// defines: REGISTER_TUNING_TILING_CLASS(op, cls) records a constructor by
// op type, CreateTilingDataInstance(op) makes one (nullptr for an op type
// nobody registered), GetClassName() is the name BEGIN_TUNING_TILING_DEF
// stored.  Included by one library unit only (ascendrtc/_op_library.py
// host_api_units: compiled when an op includes that header), so these
// out-of-line definitions exist once per process and library options.
#ifndef ARC_TUNING_TILING_UNIT_H
#define ARC_TUNING_TILING_UNIT_H

#include "register/tuning_tiling_registry.h"

namespace tuningtiling {

ge::AscendString TuningTilingDef::GetClassName() const { return class_name_; }

std::map<ge::AscendString, TuningTilingDefConstructor> &TuningTilingClassFactory::RegisterInfo()
{
    static std::map<ge::AscendString, TuningTilingDefConstructor> by_op;
    return by_op;
}

void TuningTilingClassFactory::RegisterTilingData(const ge::AscendString &optype,
                                                  TuningTilingDefConstructor const constructor)
{
    RegisterInfo()[optype] = constructor;
}

std::shared_ptr<TuningTilingDef> TuningTilingClassFactory::CreateTilingDataInstance(const ge::AscendString &optype)
{
    auto it = RegisterInfo().find(optype);
    return it == RegisterInfo().end() || it->second == nullptr ? nullptr : it->second();
}

} // namespace tuningtiling

#endif
