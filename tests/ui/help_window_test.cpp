// The build with the window lists `view` among the subcommands (the window-less build hides its
// stub, tests/cli/info_query_test.cpp).
#include <gtest/gtest.h>

#include "tests/support/test_support.h"

namespace {

TEST(CliHelpWindow, ListsView) {
  auto r = test_support::RunFencescope("--help");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\n  view "), std::string::npos) << r.out;
}

}  // namespace
