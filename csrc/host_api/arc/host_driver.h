// arc/host_driver.h - compiled after an op's op_host sources: the C entry
// points through which ascendrtc reads the op definition and runs its
// InferShape, InferDataType and tiling functions.  Requests are lines of
// text, replies JSON (both small); nothing here is for op code to use.
#ifndef ARC_HOST_DRIVER_H
#define ARC_HOST_DRIVER_H

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>

#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace arc_host {

class Json {
public:
    Json &raw(const std::string &s)
    {
        out_ += s;
        fresh_ = false;
        return *this;
    }
    Json &str(const std::string &s)
    {
        out_ += '"';
        for (unsigned char c : s) {
            if (c == '"' || c == '\\') {
                out_ += '\\';
                out_ += static_cast<char>(c);
            } else if (c < 0x20) {
                char b[8];
                std::snprintf(b, sizeof b, "\\u%04x", c);
                out_ += b;
            } else {
                out_ += static_cast<char>(c);
            }
        }
        out_ += '"';
        fresh_ = false;
        return *this;
    }
    Json &num(double v)
    {
        if (std::isnan(v))
            return raw("NaN");
        if (std::isinf(v))
            return raw(v > 0 ? "Infinity" : "-Infinity");
        char b[40];
        std::snprintf(b, sizeof b, "%.9g", v);
        return raw(b);
    }
    Json &inum(long long v) { return raw(std::to_string(v)); }
    Json &unum(unsigned long long v) { return raw(std::to_string(v)); }
    Json &key(const char *k)
    {
        comma();
        str(k);
        out_ += ':';
        fresh_ = true;
        return *this;
    }
    Json &open(char c)
    {
        comma();
        out_ += c;
        fresh_ = true;
        return *this;
    }
    Json &close(char c)
    {
        out_ += c;
        fresh_ = false;
        return *this;
    }
    // Separates values: called before each array element or object key.
    Json &comma()
    {
        if (!fresh_ && !out_.empty())
            out_ += ',';
        fresh_ = false;
        return *this;
    }
    const std::string &text() const { return out_; }

private:
    std::string out_;
    bool fresh_ = true;
};

inline void param_json(Json &j, ops::OpParamDef &p)
{
    j.open('{').key("name").str(p.arc_name());
    j.key("param_type").inum(p.arc_param_type());
    j.key("dtypes").open('[');
    for (auto d : p.arc_dtypes())
        j.comma().inum(d);
    j.close(']');
    j.key("dtype_list").raw(p.arc_dtype_list() ? "true" : "false");
    j.key("formats").open('[');
    for (auto f : p.arc_formats())
        j.comma().inum(f);
    j.close(']');
    j.key("value_depend").inum(p.arc_value_depend());
    j.key("follow").str(p.arc_follow());
    j.close('}');
}

inline void params_json(Json &j, const char *k, std::vector<ops::OpParamDef> &v)
{
    j.key(k).open('[');
    for (auto &p : v)
        param_json(j, p);
    j.close(']');
}

inline std::string describe(ops::OpDef &d)
{
    Json j;
    j.open('{').key("ok").raw("true").key("type").str(d.GetOpType().GetString());
    params_json(j, "inputs", d.arc_inputs());
    params_json(j, "outputs", d.arc_outputs());
    j.key("attrs").open('[');
    for (auto &a : d.arc_attrs()) {
        j.open('{').key("name").str(a.arc_name()).key("required").raw(a.arc_required() ? "true" : "false");
        j.key("kind").inum(static_cast<int>(a.arc_kind()));
        j.key("has_default").raw(a.arc_has_default() ? "true" : "false");
        j.key("ints").open('[');
        for (auto v : a.arc_ints())
            j.comma().inum(v);
        j.close(']').key("floats").open('[');
        for (auto v : a.arc_floats())
            j.comma().num(v);
        j.close(']').key("str").str(a.arc_str()).close('}');
    }
    j.close(']');
    j.key("configs").open('[');
    auto &cfgs = d.AICore().arc_configs();
    for (size_t i = 0; i < cfgs.size(); i++) {
        j.open('{').key("soc").str(cfgs[i].first);
        j.key("given").raw(d.AICore().arc_config_given()[i] ? "true" : "false");
        params_json(j, "inputs", cfgs[i].second.arc_inputs());
        params_json(j, "outputs", cfgs[i].second.arc_outputs());
        j.close('}');
    }
    j.close(']');
    j.key("tiling").raw(d.AICore().GetTiling() ? "true" : "false");
    j.key("tiling_classes").open('[');
    for (const __arc_tiling::reg_entry *e = __arc_tiling::registry_head(); e; e = e->next)
        j.open('{').key("op").str(e->op).key("cls").str(e->cls).key("size").unum(e->size).close('}');
    j.close(']');
    j.key("infer_shape").raw(d.arc_infer_shape() ? "true" : "false");
    j.key("infer_dtype").raw(d.arc_infer_dtype() ? "true" : "false");
    j.close('}');
    return j.text();
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
    size_t nd;
    ls >> ir >> dt >> fmt >> nd;
    Io io;
    for (size_t k = 0; k < nd; k++) {
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

inline void read_request(const char *req, OpState &s, std::string &mode, size_t &capacity)
{
    std::istringstream in(req);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ls(line);
        std::string tag;
        ls >> tag;
        if (tag == "mode")
            ls >> mode;
        else if (tag == "name")
            ls >> s.node_name;
        else if (tag == "capacity")
            ls >> capacity;
        else if (tag == "soc") {
            fe::PlatFormInfos &p = s.platform;
            int split = 1;
            ls >> p.soc_version >> p.short_soc_version >> p.aic_num >> p.aiv_num >> p.ub_size >> p.l1_size >>
                p.l0a_size >> p.l0b_size >> p.l0c_size >> p.l2_size >> p.hbm_size >> p.lib_api_workspace >> split;
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

inline std::string run_infer(ops::OpDef &d, OpState &s)
{
    s.out_shapes.assign(s.outputs.io.size(), gert::Shape());
    s.out_dtypes.clear();
    for (auto &o : s.outputs.io)
        s.out_dtypes.push_back(o.desc.GetDataType());
    if (auto f = d.arc_infer_shape()) {
        gert::InferShapeContext ctx(&s);
        ge::graphStatus st = f(&ctx);
        if (st != ge::GRAPH_SUCCESS)
            return error_json("infer_shape", "the InferShape function returned " + status_name(st));
    }
    if (auto f = d.arc_infer_dtype()) {
        gert::InferDataTypeContext ctx(&s);
        ge::graphStatus st = f(&ctx);
        if (st != ge::GRAPH_SUCCESS)
            return error_json("infer_dtype", "the InferDataType function returned " + status_name(st));
    }
    Json j;
    j.open('{').key("ok").raw("true").key("outputs").open('[');
    for (size_t i = 0; i < s.out_shapes.size(); i++) {
        j.open('{').key("dtype").inum(s.out_dtypes[i]).key("shape").open('[');
        for (size_t k = 0; k < s.out_shapes[i].GetDimNum(); k++)
            j.comma().inum(s.out_shapes[i].GetDim(k));
        j.close(']').close('}');
    }
    j.close(']').close('}');
    return j.text();
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

inline std::string run_tiling(ops::OpDef &d, OpState &s, size_t capacity)
{
    gert::TilingKernelFunc f = d.AICore().GetTiling();
    if (!f)
        return error_json("tiling", "the op definition sets no tiling function (this->AICore().SetTiling(...))");
    s.tiling_buf.reset(new uint8_t[sizeof(gert::TilingData) + capacity + kTilingSlack]());
    s.tiling = reinterpret_cast<gert::TilingData *>(s.tiling_buf.get());
    s.tiling->Init(capacity, s.tiling_buf.get() + sizeof(gert::TilingData));
    gert::TilingContext ctx(&s);
    ge::graphStatus st = f(&ctx);
    __arc_tiling::flush_all(); // objects bound with SetDataPtr and still alive
    if (!s.error.empty())
        return error_json("tiling", s.error);
    if (st != ge::GRAPH_SUCCESS)
        return error_json("tiling", "the tiling function returned " + status_name(st));
    size_t n = s.tiling->GetDataSize();
    if (n > capacity)
        return error_json("tiling", "the tiling data (" + std::to_string(n) +
                                        " bytes) is larger than the tiling buffer (" + std::to_string(capacity) +
                                        " bytes)");
    if (s.block_dim == 0)
        return error_json("tiling", "the tiling function set no block dim (context->SetBlockDim)");
    Json j;
    j.open('{').key("ok").raw("true").key("block_dim").unum(s.block_dim);
    j.key("tiling_key").unum(s.tiling_key).key("tiling_key_set").raw(s.tiling_key_set ? "true" : "false");
    j.key("schedule_mode").unum(s.schedule_mode).key("capacity").unum(capacity);
    j.key("workspace").open('[');
    for (size_t w : s.workspace)
        j.comma().unum(w);
    j.close(']');
    static const char hexd[] = "0123456789abcdef";
    std::string hex;
    const uint8_t *p = static_cast<const uint8_t *>(s.tiling->GetData());
    for (size_t i = 0; i < n; i++) {
        hex += hexd[p[i] >> 4];
        hex += hexd[p[i] & 15];
    }
    j.key("tiling").str(hex).close('}');
    return j.text();
}

using Factory = ops::OpDef *(*)();

// One definition per op type, made on first use and kept with the image.
inline ops::OpDef *definition(Factory f)
{
    static std::mutex mu;
    static std::map<Factory, std::unique_ptr<ops::OpDef>> defs;
    std::lock_guard<std::mutex> g(mu);
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

extern "C" __attribute__((visibility("default"), used)) char *arc_host_call(void *factory, const char *request)
{
    std::string stage = "request", r;
    static std::mutex mu;  // the hooks above are process-wide
    std::lock_guard<std::mutex> g(mu);
    try {
        ops::OpDef *d = arc_host::definition(reinterpret_cast<arc_host::Factory>(factory));
        arc_host::OpState s;
        s.node_type = d->GetOpType().GetString();
        s.node_name = s.node_type;
        std::string mode;
        size_t capacity = 0;
        arc_host::read_request(request, s, mode, capacity);
        platform_ascendc::PlatformAscendCManager::Current() = &s.platform;
        arc_host::current() = &s;
        __arc_tiling::overflow_hook() = arc_host::on_overflow;
        stage = mode;
        if (mode == "infer")
            r = arc_host::run_infer(*d, s);
        else if (mode == "tiling")
            r = arc_host::run_tiling(*d, s, capacity);
        else
            r = arc_host::error_json("request", "unknown mode '" + mode + "'");
        platform_ascendc::PlatformAscendCManager::Current() = nullptr;
        arc_host::current() = nullptr;
    } catch (const std::exception &e) {
        platform_ascendc::PlatformAscendCManager::Current() = nullptr;
        arc_host::current() = nullptr;
        r = arc_host::error_json(stage, std::string("the op's host code threw: ") + e.what());
    } catch (...) {
        platform_ascendc::PlatformAscendCManager::Current() = nullptr;
        arc_host::current() = nullptr;
        r = arc_host::error_json(stage, "the op's host code threw an exception");
    }
    return arc_host::reply(r);
}

#endif
