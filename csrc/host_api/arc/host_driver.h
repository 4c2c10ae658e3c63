// arc/host_driver.h - compiled after an op's op_host sources: the C entry
// points through which ascendrtc reads the op definition and runs its
// InferShape, InferDataType and tiling functions.  Requests are lines of
// text; the definition is described once as JSON, calls answer in an
// arc_op_plan (arc/op_protocol.h).  The caller (csrc/ext/op_host_code.c) runs
// each entry point on a thread of its own under the fault handlers and
// serialises them, so nothing here holds a lock while op code runs (a
// call abandoned after a fault or a timeout must not leave one held).
// Nothing here is for op code to use.
#ifndef ARC_HOST_DRIVER_H
#define ARC_HOST_DRIVER_H

#include <cmath>
#include <cxxabi.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <typeinfo>

#include "arc/host_describe.h"
#include "arc/op_log.h"
#include "arc/op_protocol.h"
#include "register/op_def_registry.h"
#include "register/op_impl_registry.h"
#include "register/tilingdata_base.h"

namespace arc_host {

// "std::runtime_error" for messages.
inline std::string type_name(const std::exception &e)
{
    int st = 0;
    char *n = abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &st);
    std::string r = n && st == 0 ? n : typeid(e).name();
    std::free(n);
    return r;
}

inline std::string error_json(const std::string &stage, const std::string &msg)
{
    Json j;
    j.open('{').key("ok").raw("false").key("stage").str(stage).key("error").str(msg).close('}');
    return j.text();
}

inline std::string unhex(const std::string &h)
{
    std::string s;
    for (size_t i = 0; i + 1 < h.size(); i += 2)
        s += static_cast<char>(std::stoi(h.substr(i, 2), nullptr, 16));
    return s;
}

// "in|out IR DTYPE FORMAT NDIM DIMS... [ADDR NBYTES]" adds one instance.
inline void read_io(std::istringstream &ls, IoList &l, bool input)
{
    size_t ir;
    int dt, fmt;
    long long nd;
    ls >> ir >> dt >> fmt >> nd;
    Io io;
    io.known = nd != ARC_OP_SHAPE_UNKNOWN;
    for (long long k = 0; k < nd; k++) {
        long long d;
        ls >> d;
        io.shape.MutableOriginShape().AppendDim(d);
    }
    io.shape.MutableStorageShape() = io.shape.GetOriginShape();
    io.desc.SetDataType(static_cast<ge::DataType>(dt));
    io.desc.SetOriginFormat(static_cast<ge::Format>(fmt));
    io.desc.SetStorageFormat(static_cast<ge::Format>(fmt));
    io.tensor.MutableShape() = io.shape;
    io.tensor.SetDataType(io.desc.GetDataType());
    io.tensor.MutableFormat() = io.desc.GetFormat();
    if (input) {
        unsigned long long addr = 0, n = 0;
        ls >> std::hex >> addr >> std::dec >> n;
        io.tensor.SetData(reinterpret_cast<const void *>(static_cast<uintptr_t>(addr)), n);
    }
    while (l.ir_start.size() <= ir) {
        l.ir_start.push_back(l.io.size());
        l.ir_count.push_back(0);
    }
    l.ir_count[ir]++;
    l.io.push_back(io);
}

// "attr INDEX KIND COUNT VALUES..." (strings hex-encoded).
inline void read_attr(std::istringstream &ls, gert::RuntimeAttrs &attrs)
{
    size_t idx, n;
    int kind;
    ls >> idx >> kind >> n;
    std::vector<uint64_t> &b = attrs.arc_blob(idx);
    auto put = [&b](const void *p, size_t bytes, size_t at) {
        if (b.size() * 8 < at + bytes)
            b.resize((at + bytes + 7) / 8 + 1, 0);
        std::memcpy(reinterpret_cast<char *>(b.data()) + at, p, bytes);
    };
    using K = ops::AttrKind;
    switch (static_cast<K>(kind)) {
    case K::INT: { int64_t v = 0; ls >> v; put(&v, 8, 0); break; }
    case K::FLOAT: { double v = 0; ls >> v; float f = static_cast<float>(v); put(&f, 4, 0); break; }
    case K::BOOL: { int v = 0; ls >> v; bool x = v != 0; put(&x, 1, 0); break; }
    case K::STRING: { std::string h; ls >> h; std::string s = h == "-" ? "" : unhex(h); put(s.c_str(), s.size() + 1, 0); break; }
    case K::LIST_INT: case K::LIST_FLOAT: case K::LIST_BOOL: {
        size_t esz = kind == static_cast<int>(K::LIST_INT) ? 8 : kind == static_cast<int>(K::LIST_FLOAT) ? 4 : 1;
        size_t hdr = sizeof(gert::TypedContinuousVector<int64_t>);
        b.assign((hdr + n * esz) / 8 + 2, 0);
        reinterpret_cast<gert::TypedContinuousVector<int64_t> *>(b.data())->Init(n, n);
        for (size_t k = 0; k < n; k++) {
            if (esz == 8) { int64_t v; ls >> v; put(&v, 8, hdr + 8 * k); }
            else if (esz == 4) { double v; ls >> v; float f = static_cast<float>(v); put(&f, 4, hdr + 4 * k); }
            else { int v; ls >> v; bool x = v != 0; put(&x, 1, hdr + k); }
        }
        break;
    }
    default: break;
    }
}

inline void read_request(const char *req, OpState &s, size_t &capacity)
{
    std::istringstream in(req);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string tag;
        ls >> tag;
        if (tag == "name")
            ls >> s.node_name;
        else if (tag == "capacity")
            ls >> capacity;
        else if (tag == "soc") {
            fe::PlatFormInfos &p = s.platform;
            int split = 1;
            ls >> p.soc_version >> p.short_soc_version >> p.aic_num >> p.aiv_num >> p.ub_size >> p.l1_size >>
                p.l0a_size >> p.l0b_size >> p.l0c_size >> p.l2_size >> p.hbm_size >> p.lib_api_workspace >> split >>
                p.npu_arch;
            p.split_arch = split != 0;
        } else if (tag == "in")
            read_io(ls, s.inputs, true);
        else if (tag == "out")
            read_io(ls, s.outputs, false);
        else if (tag == "attr")
            read_attr(ls, s.attrs);
        else if (tag == "nin" || tag == "nout") {
            size_t n;
            ls >> n;
            IoList &l = tag == "nin" ? s.inputs : s.outputs;
            while (l.ir_start.size() < n) {
                l.ir_start.push_back(l.io.size());
                l.ir_count.push_back(0);
            }
        }
    }
}

inline std::string status_name(ge::graphStatus st)
{
    if (st == ge::GRAPH_FAILED)
        return "ge::GRAPH_FAILED";
    if (st == ge::GRAPH_PARAM_INVALID)
        return "ge::GRAPH_PARAM_INVALID";
    return std::to_string(st);
}


// A failed call: the stage stays where it failed; what the op logged as
// errors during the call (OP_LOGE, error reports) says why.
inline void fail(arc_op_plan *p, std::string msg)
{
    if (!logged_errors().empty())
        msg += " (the op logged: " + logged_errors() + ")";
    p->ok = 0;
    p->error = static_cast<char *>(std::malloc(msg.size() + 1));
    if (p->error)
        std::memcpy(p->error, msg.c_str(), msg.size() + 1);
}

template <typename T> T *alloc_n(size_t n) { return static_cast<T *>(std::calloc(n ? n : 1, sizeof(T))); }

// InferShape and InferDataType, then the outputs into the plan.  False
// (and the plan failed) when a function fails or a shape stays unknown.
inline bool run_infer(ops::OpDef &d, OpState &s, arc_op_plan *p)
{
    s.out_shapes.clear();
    s.out_dtypes.clear();
    for (auto &o : s.outputs.io) {
        s.out_shapes.push_back(o.shape.GetOriginShape());
        s.out_dtypes.push_back(o.desc.GetDataType());
    }
    if (auto f = infer_shape_of(d)) {
        p->stage = ARC_OP_STAGE_INFER_SHAPE;
        for (auto &sh : s.out_shapes)
            sh = gert::Shape();
        gert::InferShapeContext ctx(&s);
        ge::graphStatus st = f(&ctx);
        if (st != ge::GRAPH_SUCCESS)
            return fail(p, "the InferShape function returned " + status_name(st)), false;
        // An InferShape that leaves an output untouched (samples ship such
        // stubs) keeps the shape the caller gave with out_shapes=/outputs=.
        for (size_t i = 0; i < s.outputs.io.size(); i++)
            if (s.out_shapes[i].GetDimNum() == 0 && s.outputs.io[i].known &&
                s.outputs.io[i].shape.GetOriginShape().GetDimNum() > 0)
                s.out_shapes[i] = s.outputs.io[i].shape.GetOriginShape();
    } else {
        p->stage = ARC_OP_STAGE_OUTPUTS;
        for (size_t i = 0; i < s.outputs.io.size(); i++)
            if (!s.outputs.io[i].known)
                return fail(p, std::to_string(i)), false;  // the caller names the output and says what to pass
    }
    if (auto f = infer_dtype_of(d)) {
        p->stage = ARC_OP_STAGE_INFER_DTYPE;
        gert::InferDataTypeContext ctx(&s);
        ge::graphStatus st = f(&ctx);
        if (st != ge::GRAPH_SUCCESS)
            return fail(p, "the InferDataType function returned " + status_name(st)), false;
    }
    size_t n = s.out_shapes.size(), dims = 0;
    for (auto &sh : s.out_shapes)
        dims += sh.GetDimNum();
    p->nout = static_cast<uint32_t>(n);
    p->out_dtype = alloc_n<int32_t>(n);
    p->out_ndim = alloc_n<int32_t>(n);
    p->out_dims = alloc_n<int64_t>(dims);
    if (!p->out_dtype || !p->out_ndim || !p->out_dims)
        return fail(p, "out of memory"), false;
    for (size_t i = 0, at = 0; i < n; i++) {
        p->out_dtype[i] = static_cast<int32_t>(s.out_dtypes[i]);
        p->out_ndim[i] = static_cast<int32_t>(s.out_shapes[i].GetDimNum());
        for (size_t k = 0; k < s.out_shapes[i].GetDimNum(); k++)
            p->out_dims[at++] = s.out_shapes[i].GetDim(k);
        // the tiling function sees the inferred outputs
        if (i < s.outputs.io.size()) {
            Io &o = s.outputs.io[i];
            o.shape.MutableOriginShape() = s.out_shapes[i];
            o.shape.MutableStorageShape() = s.out_shapes[i];
            o.tensor.MutableShape() = o.shape;
            o.desc.SetDataType(s.out_dtypes[i]);
            o.tensor.SetDataType(s.out_dtypes[i]);
        }
    }
    return true;
}

// The call in progress, for the DSL's SaveToBuffer overflow hook.
inline OpState *&current()
{
    static OpState *s = nullptr;
    return s;
}

inline void on_overflow(const char *cls, size_t need, size_t capacity)
{
    if (current() && current()->error.empty())
        current()->error = std::string(cls) + "::SaveToBuffer: the tiling data (" + std::to_string(need) +
                           " bytes) is larger than the tiling buffer (" + std::to_string(capacity) + " bytes)";
}

// Bytes of slack after the tiling buffer: a tiling function that writes
// past the capacity (unchecked memcpy) is reported, not a heap corruption.
constexpr size_t kTilingSlack = 64 * 1024;

inline void run_tiling(ops::OpDef &d, OpState &s, size_t capacity, arc_op_plan *p)
{
    p->stage = ARC_OP_STAGE_TILING;
    gert::TilingKernelFunc f = tiling_of(d);
    if (!f)
        return fail(p, "the op definition sets no tiling function (this->AICore().SetTiling(...) or "
                       "IMPL_OP_OPTILING(op).Tiling(...))");
    std::shared_ptr<void> info;
    const gert::ArcOpImpl *impl = gert::arc_op_impl(s.node_type);
    if (impl && impl->tiling_parse && impl->make_compile_info) {
        info = impl->make_compile_info();
        s.compile_info = info.get();
        gert::TilingParseContext pc(&s);
        ge::graphStatus pst = impl->tiling_parse(&pc);
        if (pst != ge::GRAPH_SUCCESS)
            return fail(p, "the TilingParse function returned " + status_name(pst));
    }
    s.tiling_buf.reset(new uint8_t[sizeof(gert::TilingData) + capacity + kTilingSlack]());
    s.tiling = reinterpret_cast<gert::TilingData *>(s.tiling_buf.get());
    s.tiling->Init(capacity, s.tiling_buf.get() + sizeof(gert::TilingData));
    gert::TilingContext ctx(&s);
    ge::graphStatus st = f(&ctx);
    __arc_tiling::flush_all(); // objects bound with SetDataPtr and still alive
    if (!s.error.empty())
        return fail(p, s.error);
    if (st != ge::GRAPH_SUCCESS)
        return fail(p, "the tiling function returned " + status_name(st));
    size_t n = s.tiling->GetDataSize();
    if (n > capacity)
        return fail(p, "the tiling data (" + std::to_string(n) + " bytes) is larger than the tiling buffer (" +
                           std::to_string(capacity) + " bytes)");
    if (s.block_dim == 0)
        return fail(p, "the tiling function set no block dim (context->SetBlockDim)");
    p->block_dim = s.block_dim;
    p->tiling_key = s.tiling_key;
    p->tiling_key_set = s.tiling_key_set;
    p->schedule_mode = s.schedule_mode;
    p->nworkspace = static_cast<uint32_t>(s.workspace.size());
    p->workspace = alloc_n<uint64_t>(s.workspace.size());
    p->tiling = alloc_n<uint8_t>(n);
    if (!p->workspace || !p->tiling)
        return fail(p, "out of memory");
    for (size_t i = 0; i < s.workspace.size(); i++)
        p->workspace[i] = s.workspace[i];
    std::memcpy(p->tiling, s.tiling->GetData(), n);
    p->tiling_size = n;
    p->tiling_struct_size = s.tiling_struct_size;
    std::snprintf(p->tiling_struct_name, sizeof p->tiling_struct_name, "%s", s.tiling_struct_name.c_str());
    p->ok = 1;
}

using Factory = ops::OpDef *(*)();

// One definition per op type, made on first use and kept with the image.
inline ops::OpDef *definition(Factory f)
{
    static std::map<Factory, std::unique_ptr<ops::OpDef>> defs;
    auto &p = defs[f];
    if (!p)
        p.reset(f());
    return p.get();
}

// Replies are malloc'd; the caller frees them with arc_host_free.
inline char *reply(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p)
        std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

} // namespace arc_host

extern "C" __attribute__((visibility("default"), used)) void arc_host_free(char *p) { std::free(p); }

// The files' static initialisers: rtc/host_op.cpp gives this its body (the
// translation unit's llvm.global_ctors, in order) and sets
// arc_host_init_file before each file's; arc_host_init runs them once,
// called by ascendrtc_host_op_init.  NULL, or what one threw (malloc'd).
extern "C" void __arc_host_ctors(void);
extern "C" __attribute__((visibility("default"), used)) const char *volatile arc_host_init_file = nullptr;

// A library unit's static initialisers (opbase's sources, shared by the
// ops of a process), called from __arc_host_ctors before the op's own:
// the first op that links the unit runs them (*state 0 -> 1 -> 2); a later
// op finding 1 is refused, as they failed (or run now in another thread).
extern "C" __attribute__((visibility("default"), used)) void __arc_host_unit(const char *path, volatile char *state,
                                                                            void (*ctors)(void))
{
    arc_host_init_file = path;
    char expected = 0;
    if (__atomic_compare_exchange_n(state, &expected, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
        ctors();
        __atomic_store_n(state, 2, __ATOMIC_RELEASE);
    } else if (expected == 1) {
        throw std::runtime_error("they did not complete when an earlier op ran them (only a new process "
                                 "runs them again)");
    }
}

// NULL when fn returned, else what it threw (malloc'd).
inline char *arc_host_caught(void (*fn)(void))
{
    try {
        fn();
        return nullptr;
    } catch (const std::exception &e) {
        return arc_host::reply(std::string("threw ") + arc_host::type_name(e) + ": " + e.what());
    } catch (...) {
        return arc_host::reply("threw an exception that is not a std::exception");
    }
}

extern "C" __attribute__((visibility("default"), used)) char *arc_host_init(void)
{
    return arc_host_caught(__arc_host_ctors);
}

// The files' destructor functions (llvm.global_dtors, moved by the loader
// like the constructors); arc_host_fini runs them once, called by
// ascendrtc_host_op_fini after the static objects' destructors.
extern "C" void __arc_host_dtors(void);

extern "C" __attribute__((visibility("default"), used)) char *arc_host_fini(void)
{
    return arc_host_caught(__arc_host_dtors);
}

extern "C" __attribute__((visibility("default"), used)) char *arc_host_describe(void *factory)
{
    std::string r;
    try {
        r = arc_host::describe(*arc_host::definition(reinterpret_cast<arc_host::Factory>(factory)));
    } catch (const std::exception &e) {
        r = arc_host::error_json("definition", std::string("the op definition threw: ") + e.what());
    } catch (...) {
        r = arc_host::error_json("definition", "the op definition threw an exception");
    }
    return arc_host::reply(r);
}

extern "C" __attribute__((visibility("default"), used)) void arc_host_plan_free(arc_op_plan *p)
{
    for (void *q : {static_cast<void *>(p->error), static_cast<void *>(p->out_dtype),
                    static_cast<void *>(p->out_ndim), static_cast<void *>(p->out_dims),
                    static_cast<void *>(p->workspace), static_cast<void *>(p->tiling)})
        std::free(q);
    std::memset(p, 0, sizeof *p);
}

// One call: InferShape/InferDataType (mode INFER), then the tiling
// function (mode TILING), for the request's inputs, outputs and attributes.
extern "C" __attribute__((visibility("default"), used)) void arc_host_plan(void *factory, int mode,
                                                                          const char *request, arc_op_plan *p)
{
    struct Reset {
        ~Reset()
        {
            platform_ascendc::PlatformAscendCManager::Current() = nullptr;
            arc_host::current() = nullptr;
        }
    } reset;
    try {
        p->stage = ARC_OP_STAGE_DEFINITION;
        arc_host::logged_errors().clear();
        ops::OpDef *d = arc_host::definition(reinterpret_cast<arc_host::Factory>(factory));
        p->stage = ARC_OP_STAGE_REQUEST;
        arc_host::OpState s;
        s.node_type = d->GetOpType().GetString();
        s.node_name = s.node_type;
        size_t capacity = 0;
        arc_host::read_request(request, s, capacity);
        platform_ascendc::PlatformAscendCManager::Current() = &s.platform;
        arc_host::current() = &s;
        __arc_tiling::overflow_hook() = arc_host::on_overflow;
        if (!arc_host::run_infer(*d, s, p))
            return;
        if (mode == ARC_OP_MODE_TILING)
            arc_host::run_tiling(*d, s, capacity, p);
        else
            p->ok = 1;
        if (p->ok)
            p->stage = ARC_OP_STAGE_DONE;
    } catch (const std::exception &e) {
        arc_host::fail(p, std::string(arc_op_stage_what(p->stage)) + " threw " + arc_host::type_name(e) + ": " +
                              e.what());
    } catch (...) {
        arc_host::fail(p, std::string(arc_op_stage_what(p->stage)) + " threw an exception that is not a "
                                                                         "std::exception");
    }
}

#endif
