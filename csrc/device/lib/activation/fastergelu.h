/* fastergelu.h - see lib/activation/gelu.h. */
#include "lib/activation/gelu.h"
