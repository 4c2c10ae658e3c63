/* simplesoftmax.h - see lib/activation/softmax.h. */
#include "lib/activation/softmax.h"
