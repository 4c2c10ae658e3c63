#include <stdio.h>
#include <stdint.h>
int arc_run(const char *, int, void (*)(void *), void *, unsigned = 2201, unsigned long long = 0);
extern "C" void add_custom(uint8_t *, uint8_t *, uint8_t *);
static float x[256], y[256], z[256];
static void blk(void *) { add_custom((uint8_t *)x, (uint8_t *)y, (uint8_t *)z); }
int main()
{
    for (int i = 0; i < 256; i++) { x[i] = i; y[i] = 2 * i; }
    int rc = arc_run("add_custom", 8, blk, nullptr);
    int bad = 0;
    for (int i = 0; i < 256; i++) bad += z[i] != 3 * i;
    printf("rc=%d bad=%d z[255]=%g\n", rc, bad, z[255]);
    return rc || bad;
}
