/* geglu.h - see lib/activation/glu.h. */
#include "lib/activation/glu.h"
