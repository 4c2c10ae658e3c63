/* mean.h - see lib/reduce/sum.h. */
#include "lib/reduce/sum.h"
