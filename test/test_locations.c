#include "tap.h"
int main(void) { TAP_OK(1, "placeholder"); return TAP_DONE(); }
