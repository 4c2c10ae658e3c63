/* basic_api/kernel_operator_block_sync_intf.h - the block synchronisation
 * interfaces (SetFlag/WaitFlag, CrossCore*, SyncAll): in kernel_operator.h. */
#include "kernel_operator.h"
