/* arc_numpy.h - include NumPy's C API the same way in every file of _C.
 * extension.c defines ARC_NUMPY_MAIN and owns the API table; the other files
 * import it through the shared symbol. */
#ifndef ARC_NUMPY_H_
#define ARC_NUMPY_H_

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL arc_ARRAY_API
#ifndef ARC_NUMPY_MAIN
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

/* poison_out.c: an Out() array's first device contents, like host: a new
 * array holding the poison pattern (ASCENDRTC_POISON=1), Py_None when not
 * poisoning, NULL on error. */
PyObject *arc_poisoned_like(PyArrayObject *host);

/* kernel_params.c: whether a GM_ADDR whose element type the kernel's casts
 * infer as `want` also takes `got` (raw bytes, integers of its size), for
 * launches (argpack.c) and the op path (_C.takes_inferred). */
int arc_raw_enough(PyArray_Descr *got, PyArray_Descr *want);

#endif /* ARC_NUMPY_H_ */
