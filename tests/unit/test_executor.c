/* test_executor.c — executor unit tests (being written). */
#include <criterion/criterion.h>
