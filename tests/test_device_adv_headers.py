"""Device API: every advanced-API header under lib/ (ascendrtc's, not the
Matmul ones) compiles when a kernel includes it first, on its own, and
gives the kernel the names it declares -- as kernels that include
"lib/quantization/ascend_antiquant.h" before anything else expect."""
import pytest

import ascendrtc as arc

# header: a statement using what it declares (x, y: LocalTensor<float>, t: LocalTensor<uint8_t>)
HEADERS = {
    "lib/activation/gelu.h": "Gelu(x, y, 8); FasterGelu(x, y, 8); FasterGeluV2(x, y, t, 8);",
    "lib/activation/fastergelu.h": "FasterGelu(x, y, 8);",
    "lib/activation/swish.h": "Swish(x, y, 8, 1.0f);",
    "lib/activation/swiglu.h": "SwiGLU<float>(x, y, y, 1.0f, 8);",
    "lib/activation/geglu.h": "GeGLU<float>(x, y, y, 8);",
    "lib/activation/reglu.h": "ReGlu<float>(x, y, y, 8);",
    "lib/activation/softmax.h": "SoftMaxTiling st{}; SoftMax<float>(x, y, st, SoftMaxShapeInfo{1, 8, 1, 8});",
    "lib/activation/simplesoftmax.h": "SoftMaxTiling st{}; SimpleSoftMax<float>(x, y, y, x, st);",
    "lib/normalization/layernorm.h": "LayerNormTiling lt{}; LayerNorm<float>(x, y, y, x, y, y, 1e-5f, lt);",
    "lib/normalization/rmsnorm.h": "RmsNormTiling rt{}; RmsNorm<float>(x, y, y, 1e-5f, rt);",
    "lib/pad/pad.h": "PadTiling pt{}; PadParams pp; Pad(x, y, pp, pt); UnPadTiling ut{}; UnPadParams up; UnPad(x, y, up, ut);",
    "lib/quantization/ascend_quant.h": "AscendQuant<float>(t.ReinterpretCast<int8_t>(), y, 1.0f, 0.0f, 8);",
    "lib/quantization/ascend_dequant.h": "AscendDequant(x, y.ReinterpretCast<int32_t>(), y, DequantParams{1, 8, 8});",
    "lib/quantization/ascend_antiquant.h": "AscendAntiQuant<int8_t, float, false>(x, t.ReinterpretCast<int8_t>(), y, y, 8);",
    "lib/reduce/sum.h": "Sum(x, y, SumParams{1, 8, 8});",
    "lib/reduce/mean.h": "Mean(x, y, MeanParams{1, 8, 8});",
    "lib/transpose/confusion_transpose.h":
        "ConfusionTransposeTiling ct{}; ConfusionTranspose(x, y, TransposeType::TRANSPOSE_ND2ND_ONLY, ct);",
    "lib/tiling/adv_tiling_data.h": "AscendC::tiling::PadTiling p{}; (void)p;",
    "kernel_tiling/kernel_tiling.h": "::SoftMaxTiling s{}; (void)s;",
    # the matmul tiling headers' older paths: the TCubeTiling a kernel reads
    "lib/matrix/matmul/tiling.h": "TCubeTiling c{}; c.baseM = 16; (void)c;",
    "lib/matmul/bmm_tiling.h": "AscendC::tiling::TCubeTiling c{}; (void)c.usedCoreNum;",
    # older SDK paths CANN's op libraries still include (csrc/device/legacy_paths.txt)
    "lib/math/kernel_operator_cos_intf.h": "Cos(x, y, 8);",
    "lib/math/kernel_operator_erf_intf.h": "Erf(x, y, 8);",
    "lib/sigmoid/kernel_operator_sigmoid_intf.h": "Sigmoid(x, y, 8);",
    "lib/pad/kernel_operator_pad_intf.h": "PadTiling pt{}; PadParams pp; Pad(x, y, pp, pt);",
    "impl/dav_c220/kernel_operator_reg_others_impl.h": "Adds(x, y, 1.0f, 8);",
}


@pytest.mark.parametrize("header", list(HEADERS))
def test_header_compiles_alone(header):
    src = ('#include "%s"\n#include "kernel_operator.h"\nusing namespace AscendC;\n'
           'extern "C" __global__ __aicore__ void k(GM_ADDR g)\n{\n'
           '    TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 1024);\n'
           '    LocalTensor<float> x = b.GetWithOffset<float>(64, 0), y = b.GetWithOffset<float>(64, 256);\n'
           '    LocalTensor<uint8_t> t = b.GetWithOffset<uint8_t>(256, 512);\n'
           '    if (g == nullptr) { %s }\n}\n') % (header, HEADERS[header])
    arc.Program(src, "hdr.asc").compile(["--npu-arch=dav-2201"])
