# ascendrtc build: the CANN-shaped home of the simulated NPU (headers,
# libascendcl.so, libacl_rtc.so, set_env.sh) and the Python extension.
#   make demo   install what is missing, build, run examples/add_custom.py
#   make test   install what is missing, build, run the test suite
#   make home   just the simulated CANN home (ascendrtc/_home)
#   make docs   regenerate docs/api.md from the docstrings
#   make wheel  a self-contained manylinux wheel in dist/ (LLVM and clang libraries bundled)
#   make bench  install the benchmarks' peers (PoCL, PyOpenCL), build, run bench/run.py

LLVM_CONFIG ?= llvm-config-19
PYTHON      ?= python3
HOME_DIR    := ascendrtc/_home
OBJ         := build/obj
GEN         := build/gen
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)

LLVM_PREFIX := $(shell $(LLVM_CONFIG) --prefix 2>/dev/null)
LLVM_LIBDIR := $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)
LLVM_CXXFLAGS := $(filter-out -O% -g% -fno-exceptions,$(shell $(LLVM_CONFIG) --cxxflags 2>/dev/null))
CLANG_RESOURCE_DIR := $(shell $(LLVM_PREFIX)/bin/clang -print-resource-dir 2>/dev/null)
# libc++'s headers (Debian's libc++-19-dev): the device side's C++ library.
LIBCXX_DIR := $(LLVM_PREFIX)/include/c++/v1

SAN ?=
OPT ?= -O2
# -MMD -MP: each object depends on the headers it reads (build/obj/*.d), not on every header.
DEPFLAGS := -MMD -MP
CFLAGS   := -std=c11 $(OPT) -g -fPIC -Wall -Wextra -fvisibility=hidden -D_GNU_SOURCE $(DEPFLAGS) \
            -Icsrc/include -Icsrc -iquote csrc/device $(SAN)
CXXFLAGS := $(LLVM_CXXFLAGS) $(OPT) -g -fPIC -Wall -Wextra -Wno-unused-parameter -fvisibility=hidden $(DEPFLAGS) \
            -fno-exceptions -Icsrc/include -Icsrc -iquote csrc/device $(SAN) \
            -DARC_LLVM_PREFIX='"$(LLVM_PREFIX)"' -DARC_CLANG_RESOURCE_DIR='"$(CLANG_RESOURCE_DIR)"' \
            -DARC_LIBCXX_DIR='"$(LIBCXX_DIR)"'
LDFLAGS  := -shared -Wl,--no-undefined -L$(LLVM_LIBDIR) -Wl,-rpath,$(LLVM_LIBDIR) $(SAN)

COMMON_SRC := $(wildcard csrc/common/*.c)
RT_SRC     := $(wildcard csrc/rt/*/*.c) $(wildcard csrc/rt/*/*.cpp) $(COMMON_SRC)
RTC_SRC    := $(wildcard csrc/rtc/*.c) $(wildcard csrc/rtc/*.cpp) $(GEN)/device_headers.c $(GEN)/host_headers.c $(GEN)/acl_headers.c $(COMMON_SRC)
# The tables csrc/common owns, served to device and host compiles too.
TABLE_HDRS := csrc/common/socs.h csrc/common/ge_dtypes.h
ALSO_TABLES := $(foreach h,$(TABLE_HDRS),--also $(h)=$(patsubst csrc/%,%,$(h)))
DEVICE_HDRS := $(shell find csrc/device -type f) $(TABLE_HDRS)
HOST_HDRS  := $(shell find csrc/host_api -type f) $(TABLE_HDRS)
ACL_HDRS   := $(wildcard csrc/include/acl/*.h)

objs = $(patsubst %,$(OBJ)/%.o,$(1))
RT_OBJ  := $(call objs,$(RT_SRC))
RTC_OBJ := $(call objs,$(RTC_SRC))

.PHONY: all home ext deps demo test bench wheel clean asan tsan docs
all: home ext

CMAKE_SRC  := $(shell find tools/cmake -type f)
home: $(HOME_DIR)/lib64/libascendcl.so $(HOME_DIR)/lib64/libacl_rtc.so \
      $(patsubst csrc/include/%,$(HOME_DIR)/include/%,$(ACL_HDRS)) $(HOME_DIR)/set_env.sh \
      $(HOME_DIR)/lib64/clang/include/stddef.h $(HOME_DIR)/lib64/libcxx/v1/__config \
      $(patsubst tools/cmake/%,$(HOME_DIR)/lib/cmake/ASC/%,$(CMAKE_SRC)) $(HOME_DIR)/bin/ascendrtc-cc \
      $(HOME_DIR)/bin/bisheng $(HOME_DIR)/bin/msopprof

# clang's own headers (stddef.h, stdint.h...) beside libacl_rtc.so, which
# prefers them to the build machine's: a wheel then compiles without LLVM installed.
$(HOME_DIR)/lib64/clang/include/stddef.h: $(CLANG_RESOURCE_DIR)/include/stddef.h
	@rm -rf $(HOME_DIR)/lib64/clang && mkdir -p $(HOME_DIR)/lib64/clang
	cp -r $(CLANG_RESOURCE_DIR)/include $(HOME_DIR)/lib64/clang/include

# ... and libc++'s, for device code's <tuple>, <type_traits>... (same reason).
$(HOME_DIR)/lib64/libcxx/v1/__config: $(LIBCXX_DIR)/__config
	@rm -rf $(HOME_DIR)/lib64/libcxx && mkdir -p $(HOME_DIR)/lib64/libcxx
	cp -r $(LIBCXX_DIR) $(HOME_DIR)/lib64/libcxx/v1

# Header dependencies come from the compiler (-MMD: $(OBJ)/<src>.d beside each
# object); an object built before the .d files existed is rebuilt once, as the
# Makefile is newer than it.
$(OBJ)/%.c.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(OBJ)/%.cpp.o: %.cpp Makefile
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -c $< -o $@

-include $(sort $(RT_OBJ:.o=.d) $(RTC_OBJ:.o=.d))

$(GEN)/device_headers.c: tools/embed_headers.py $(DEVICE_HDRS)
	@mkdir -p $(dir $@)
	$(PYTHON) tools/embed_headers.py csrc/device $@ arc_device_headers $(ALSO_TABLES)

$(GEN)/host_headers.c: tools/embed_headers.py $(HOST_HDRS)
	@mkdir -p $(dir $@)
	$(PYTHON) tools/embed_headers.py csrc/host_api $@ arc_host_headers $(ALSO_TABLES)

# The compiler's own sources and the host headers, hashed into the compiler
# fingerprint (rtc/fingerprint.c): a rebuilt compiler never serves a cached
# binary or host object the old one made.
RTC_OWN := $(sort $(wildcard csrc/rtc/*.c csrc/rtc/*.cpp csrc/rtc/*.h) $(HOST_HDRS))
$(GEN)/rtc_sources_hash.h: $(RTC_OWN)
	@mkdir -p $(dir $@)
	@printf '#define ARC_RTC_SOURCES_HASH "%s"\n' "$$(cat $(RTC_OWN) | sha256sum | cut -c1-16)" > $@.tmp
	@cmp -s $@.tmp $@ 2>/dev/null && rm -f $@.tmp || mv $@.tmp $@
$(OBJ)/csrc/rtc/fingerprint.c.o: $(GEN)/rtc_sources_hash.h
$(OBJ)/csrc/rtc/fingerprint.c.o: CFLAGS += -I$(GEN)

$(GEN)/acl_headers.c: tools/embed_headers.py $(ACL_HDRS)
	@mkdir -p $(dir $@)
	$(PYTHON) tools/embed_headers.py csrc/include $@ arc_acl_headers

$(HOME_DIR)/lib64/libascendcl.so: $(RT_OBJ)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) -Wl,-soname,libascendcl.so -o $@ $^ -lLLVM-19 -lpthread -lm -ldl

$(HOME_DIR)/lib64/libacl_rtc.so: $(RTC_OBJ) $(HOME_DIR)/lib64/libascendcl.so
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) -Wl,-soname,libacl_rtc.so -Wl,-rpath,'$$ORIGIN' -o $@ $(RTC_OBJ) \
	    -L$(HOME_DIR)/lib64 -Wl,--no-as-needed -lascendcl -Wl,--as-needed -lclang-cpp -lLLVM-19 -lpthread

$(HOME_DIR)/include/%.h: csrc/include/%.h
	@mkdir -p $(dir $@)
	cp $< $@

$(HOME_DIR)/set_env.sh: tools/set_env.sh
	@mkdir -p $(dir $@)
	cp $< $@

# CMake's ASC language (find_package(ASC)) and its compiler, the `ascendrtc cc` driver
$(HOME_DIR)/lib/cmake/ASC/%: tools/cmake/%
	@mkdir -p $(dir $@)
	cp $< $@

$(HOME_DIR)/bin/ascendrtc-cc: tools/ascendrtc-cc
	@mkdir -p $(dir $@)
	cp $< $@

# bisheng's name for the same driver: the examples' READMEs call it directly
$(HOME_DIR)/bin/bisheng: tools/ascendrtc-cc
	@mkdir -p $(dir $@)
	cp $< $@

# CANN's profiler: a program's launches priced by the cost model (ascendrtc/_msopprof.py)
$(HOME_DIR)/bin/msopprof: tools/msopprof
	@mkdir -p $(dir $@)
	cp $< $@

ext: home
	$(PYTHON) setup.py -q build_ext --inplace -j $(JOBS)

deps:
	@sh tools/install_deps.sh

demo: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	$(PYTHON) examples/add_custom.py

test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) all
	PYTHON=$(PYTHON) sh tools/run_tests.sh

# A self-contained manylinux wheel in dist/: pip wheel, then auditwheel repair
# bundles libLLVM, libclang-cpp and what they need (names a missing library and stops).
wheel: deps
	rm -rf build/wheel-raw && $(PYTHON) -m pip wheel --no-deps --no-build-isolation -q -w build/wheel-raw .
	$(PYTHON) -m auditwheel repair -w dist build/wheel-raw/ascendrtc-*.whl

# The peers the benchmarks measure against (PoCL from Debian, PyOpenCL from PyPI), then every benchmark.
bench:
	@PYTHON=$(PYTHON) sh tools/install_deps.sh --bench
	@$(MAKE) --no-print-directory -j$(JOBS) all
	$(PYTHON) bench/run.py

# The C core under AddressSanitizer + UBSan, in its own OBJ/HOME dirs, and a
# C program that drives memory, stream, event, args and launch paths under
# it (ASAN_KERNEL="add.o [trap.o [wait.o [mix.o]]]": the kernels of tests/helpers/rt_kernels.py
# add the load/launch, trap and stall paths).
ASAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
ASAN_HOME  := build/home-asan
asan:
	@$(MAKE) --no-print-directory OBJ=build/obj-asan HOME_DIR=$(ASAN_HOME) OPT=-O1 SAN="$(ASAN_FLAGS)" \
	    $(ASAN_HOME)/lib64/libascendcl.so
	$(CC) -std=c11 -g -O1 $(ASAN_FLAGS) -Icsrc/include tests/rt_native/asan_rt.c -o build/asan_rt \
	    -L$(ASAN_HOME)/lib64 -Wl,-rpath,$(CURDIR)/$(ASAN_HOME)/lib64 -lascendcl -lpthread
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 build/asan_rt $(ASAN_KERNEL)

# The same driver under ThreadSanitizer (TSAN_KERNEL as ASAN_KERNEL).
TSAN_HOME  := build/home-tsan
tsan:
	@$(MAKE) --no-print-directory OBJ=build/obj-tsan HOME_DIR=$(TSAN_HOME) OPT=-O1 SAN="-fsanitize=thread" \
	    $(TSAN_HOME)/lib64/libascendcl.so
	$(CC) -std=c11 -g -O1 -fsanitize=thread -Icsrc/include tests/rt_native/asan_rt.c -o build/tsan_rt \
	    -L$(TSAN_HOME)/lib64 -Wl,-rpath,$(CURDIR)/$(TSAN_HOME)/lib64 -lascendcl -lpthread
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" setarch -R build/tsan_rt $(TSAN_KERNEL)

# docs/api.md from the docstrings (tests/test_docs.py fails when it is stale).
docs: ext
	$(PYTHON) tools/gen_api_docs.py

clean:
	rm -rf build $(HOME_DIR) ascendrtc/*.so
