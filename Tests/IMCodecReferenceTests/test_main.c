/*
 * The C reference's tests: `imcodec_ref_tests [TESTEE]`. With a testee path
 * the testee protocol is exercised too. Ends with "N passed, N failed".
 */
#include "test_util.h"

#include <stdio.h>

int main(int argc, char **argv) {
    test_payload();
    test_frame();
    test_reader();
    test_validate();
    if (argc > 1) test_testee(argv[1]);
    printf("%d passed, %d failed\n", tests_passed, tests_failed);
    return tests_failed == 0 ? 0 : 1;
}
