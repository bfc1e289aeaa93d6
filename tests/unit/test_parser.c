/* placeholder replaced below */
#include <criterion/criterion.h>
Test(lexer, placeholder) { cr_assert(1); }
