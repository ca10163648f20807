// The man page, the completions and the --help examples, written from the command-line
// definition (app/cli/cli_docs.h, app/cli/examples.h): every subcommand is in each, with its
// options, and every example names only options its subcommand has. The installed files are
// checked again with man, bash, zsh and fish by tests/install.
#include "app/cli/cli_docs.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "app/cli/commands.h"
#include "app/cli/examples.h"
#include "tests/support/test_support.h"

using namespace app::cli;
using test_support::RunCommand;
using test_support::ScratchDir;

namespace {

// The headless command line (the window's `view` is checked on the installed files).
std::unique_ptr<CLI::App> CommandLine() {
  auto app = std::make_unique<CLI::App>("fencescope: see and analyse how GPU work is synchronised",
                                        "fencescope");
  RegisterAllCommands(*app);
  AddExamples(*app);
  return app;
}

bool HasOption(const CLI::App& app, const std::string& name) {
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& s : option->get_snames()) {
      if ("-" + s == name) return true;
    }
    for (const std::string& l : option->get_lnames()) {
      if ("--" + l == name) return true;
    }
  }
  return false;
}

// The words of `line` outside double quotes.
std::vector<std::string> Words(const std::string& line) {
  std::vector<std::string> words;
  std::string word;
  bool quoted = false;
  for (char c : line + " ") {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ' ' && !quoted) {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else if (!quoted) {
      word += c;
    }
  }
  return words;
}

}  // namespace

TEST(CliDocs, EverySubcommandHasExamplesNamingOnlyItsOptions) {
  auto app = CommandLine();
  const auto subcommands = AllSubcommands(*app);
  ASSERT_GE(subcommands.size(), 11u);
  for (const CLI::App* sub : subcommands) {
    const std::string path = CommandPath(*sub);
    const auto& examples = ExamplesFor(path);
    ASSERT_FALSE(examples.empty()) << "no examples for 'fencescope " << path << "'";
    EXPECT_NE(sub->get_footer().find("Examples:"), std::string::npos) << path;
    for (const Example& example : examples) {
      const std::string prefix = "fencescope " + path;
      EXPECT_TRUE(example.command == prefix || example.command.rfind(prefix + " ", 0) == 0)
          << example.command << " is not an example of 'fencescope " << path << "'";
      EXPECT_FALSE(example.explanation.empty()) << example.command;
      for (const std::string& word : Words(example.command)) {
        if (word == "--" || word == "&&") break;  // a program's arguments, another command
        if (word.size() > 1 && word[0] == '-') {
          EXPECT_TRUE(HasOption(*sub, word))
              << example.command << ": 'fencescope " << path << "' has no option " << word;
        }
      }
    }
  }
}

TEST(CliDocs, ManPageHasASectionPerSubcommandWithItsOptions) {
  auto app = CommandLine();
  const std::string man = ManPage(*app, "1.2.3");
  EXPECT_NE(man.find(".TH FENCESCOPE 1 \"\" \"fencescope 1.2.3\""), std::string::npos);
  for (const CLI::App* sub : AllSubcommands(*app)) {
    const std::string path = CommandPath(*sub);
    const size_t section = man.find(".SS \"fencescope " + path + "\"\n");
    ASSERT_NE(section, std::string::npos) << path;
    const size_t next = man.find(".SS ", section + 1);
    const std::string text = man.substr(section, next - section);
    for (const CLI::Option* option : sub->get_options()) {
      for (const std::string& l : option->get_lnames()) {
        std::string roff;  // hyphens are written \- in roff
        for (char c : "--" + l) roff += c == '-' ? std::string("\\-") : std::string(1, c);
        EXPECT_NE(text.find("\\fB" + roff + "\\fR"), std::string::npos) << path << " --" << l;
      }
    }
    EXPECT_NE(text.find("Examples:"), std::string::npos) << path;
  }
}

// Bash is always here: its completion is run at every level and compared with the definition.
TEST(CliDocs, BashCompletionOffersEverySubcommandOptionAndChoice) {
  auto app = CommandLine();
  ScratchDir dir;
  { std::ofstream(dir / "fencescope.bash") << BashCompletion(*app); }
  auto complete = [&](const std::string& line) {
    std::ofstream(dir / "run.sh") << "source '" << (dir / "fencescope.bash").string() << "'\n"
                                  << "read -ra COMP_WORDS <<< '" << line << "'\n"
                                  << "COMP_WORDS+=(\"$1\"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n"
                                  << "_fencescope; printf '%s\\n' \"${COMPREPLY[@]}\"\n";
    return RunCommand("bash '" + (dir / "run.sh").string() + "' ''");
  };
  auto lines = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty()) out.push_back(line);
    }
    return out;
  };
  std::vector<const CLI::App*> levels{app.get()};
  for (const CLI::App* sub : AllSubcommands(*app)) levels.push_back(sub);
  for (const CLI::App* level : levels) {
    const std::string path = CommandPath(*level);
    const std::string prefix = "fencescope" + (path.empty() ? "" : " " + path);
    std::vector<std::string> expected;
    for (const CLI::App* child : VisibleSubcommands(*level)) {
      expected.push_back(child->get_name());
    }
    auto r = complete(prefix);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(lines(r.out), expected) << prefix;
  }
  // options of a nested subcommand, the choices of an option
  std::ofstream(dir / "run.sh") << "source '" << (dir / "fencescope.bash").string() << "'\n"
                                << "COMP_WORDS=(fencescope report --format ''); COMP_CWORD=3\n"
                                << "_fencescope; echo \"${COMPREPLY[*]}\"\n"
                                << "COMP_WORDS=(fencescope bench import --); COMP_CWORD=3\n"
                                << "_fencescope; echo \"${COMPREPLY[*]}\"\n";
  auto r = RunCommand("bash '" + (dir / "run.sh").string() + "'");
  EXPECT_EQ(r.out, "html json md\n--help --repeat --dir\n") << r.err;
}
