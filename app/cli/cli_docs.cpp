#include "app/cli/cli_docs.h"

#include <fmt/format.h>

#include <regex>
#include <vector>

#include "app/cli/examples.h"

namespace app::cli {
namespace {

// One level of the command line: the app itself or a subcommand.
struct Level {
  const CLI::App* app = nullptr;
  std::string path;  // "", "simulate", "bench import"
};

std::vector<Level> Levels(const CLI::App& app) {
  std::vector<Level> levels{{&app, ""}};
  for (const CLI::App* sub : AllSubcommands(app)) levels.push_back({sub, CommandPath(*sub)});
  return levels;
}

// Options with a name (not positionals), hidden ones left out.
std::vector<const CLI::Option*> NamedOptions(const CLI::App& app) {
  return app.get_options(
      [](const CLI::Option* o) { return o->nonpositional() && !o->get_group().empty(); });
}

std::vector<const CLI::Option*> Positionals(const CLI::App& app) {
  return app.get_options(
      [](const CLI::Option* o) { return o->get_positional() && !o->get_group().empty(); });
}

std::vector<std::string> Names(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const std::string& s : option.get_snames()) names.push_back("-" + s);
  for (const std::string& l : option.get_lnames()) names.push_back("--" + l);
  return names;
}

bool TakesValue(const CLI::Option& option) {
  return option.get_type_size() != 0;
}

// The fixed set of values of an option checked by CLI::IsMember ("TEXT:{html,json,md}").
std::vector<std::string> Choices(const CLI::Option& option) {
  std::vector<std::string> choices;
  std::smatch match;
  const std::string type = option.get_type_name();
  if (std::regex_search(type, match, std::regex(R"(\{([^{}]*)\})"))) {
    std::string list = match[1];
    size_t start = 0;
    while (start <= list.size()) {
      size_t comma = list.find(',', start);
      if (comma == std::string::npos) comma = list.size();
      std::string value = list.substr(start, comma - start);
      if (!value.empty()) choices.push_back(value);
      start = comma + 1;
    }
  }
  return choices;
}

std::string Join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

// ---- roff ----

// Text for roff: backslashes escaped, hyphens as \- (so they stay ASCII hyphens in options and
// can be searched for), a leading '.' or '\'' kept from being read as a request.
std::string Roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    line_start = c == '\n';
  }
  return out;
}

std::string Bold(const std::string& text) {
  return "\\fB" + Roff(text) + "\\fR";
}
std::string Italic(const std::string& text) {
  return "\\fI" + Roff(text) + "\\fR";
}

std::string ManOption(const CLI::Formatter& formatter, const CLI::Option& option, bool positional) {
  std::string out = ".TP\n";
  if (positional) {
    out += Bold(option.get_name(true, false));
  } else {
    std::vector<std::string> names;
    for (const std::string& name : Names(option)) names.push_back(Bold(name));
    out += Join(names, ", ");
  }
  const std::string opts = formatter.make_option_opts(&option);
  if (!opts.empty()) out += Italic(opts);
  out += "\n" + Roff(option.get_description()) + "\n";
  return out;
}

std::string ManLevel(const CLI::Formatter& formatter, const Level& level) {
  const CLI::App& app = *level.app;
  std::string out;
  const std::string name = level.path.empty() ? "fencescope" : "fencescope " + level.path;
  if (!level.path.empty()) {
    out += ".SS \"" + Roff(name) + "\"\n" + Roff(app.get_description()) + "\n";
  }
  std::string usage = formatter.make_usage(&app, name);
  usage = usage.substr(usage.find(':') + 2);
  while (!usage.empty() && usage.back() == '\n') usage.pop_back();
  out += ".PP\n" + Bold(name) + Roff(usage.substr(name.size())) + "\n";
  const auto positionals = Positionals(app);
  if (!positionals.empty()) {
    out += ".PP\nArguments:\n.RS 4\n";
    for (const CLI::Option* option : positionals) out += ManOption(formatter, *option, true);
    out += ".RE\n";
  }
  const auto options = NamedOptions(app);
  if (!options.empty()) {
    out += ".PP\nOptions:\n.RS 4\n";
    for (const CLI::Option* option : options) out += ManOption(formatter, *option, false);
    out += ".RE\n";
  }
  const auto children = VisibleSubcommands(app);
  if (!children.empty()) {
    out += ".PP\nSubcommands:\n.RS 4\n";
    for (const CLI::App* child : children) {
      out += ".TP\n" + Bold(child->get_name()) + "\n" + Roff(child->get_description()) + "\n";
    }
    out += ".RE\n";
  }
  const auto& examples = ExamplesFor(level.path);
  if (!examples.empty()) {
    out += ".PP\nExamples:\n.RS 4\n";
    for (const Example& example : examples) {
      out += ".PP\n.nf\n" + Roff(example.command) + "\n.fi\n" + Roff(example.explanation) + "\n";
    }
    out += ".RE\n";
  }
  return out;
}

// ---- shell helpers ----

std::string SingleQuoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// A description on one line, at most ~100 characters (completion menus are narrow).
std::string Short(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\t') c = ' ';
  }
  if (text.size() > 100) {
    size_t cut = text.rfind(' ', 97);
    text = text.substr(0, cut == std::string::npos ? 97 : cut) + "...";
  }
  return text;
}

// "/bench/import" for the path "bench import".
std::string SlashPath(const std::string& path) {
  std::string out = path.empty() ? "" : "/" + path;
  for (char& c : out) {
    if (c == ' ') c = '/';
  }
  return out;
}

std::vector<std::string> ValuedOptionNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : NamedOptions(app)) {
    if (!TakesValue(*option)) continue;
    for (const std::string& name : Names(*option)) names.push_back(name);
  }
  return names;
}

std::vector<std::string> ChildNames(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* child : VisibleSubcommands(app)) names.push_back(child->get_name());
  return names;
}

const char* kGenerated =
    "Generated from fencescope's command-line definition "
    "(app/command_line.cpp) by fencescope_clidoc. Do not edit.";

}  // namespace

std::string ManPage(const CLI::App& app, const std::string& version) {
  CLI::Formatter formatter;
  std::string out = fmt::format(".\\\" {}\n", kGenerated);
  out += fmt::format(".TH FENCESCOPE 1 \"\" \"fencescope {}\" \"User Commands\"\n", Roff(version));
  std::string description = app.get_description();
  if (description.rfind("fencescope: ", 0) == 0) description = description.substr(12);
  out += ".SH NAME\nfencescope \\- " + Roff(description) + "\n";
  out += ".SH SYNOPSIS\n" + Bold("fencescope") + " [" + Italic("OPTIONS") + "]\n.br\n" +
         Bold("fencescope") + " " + Italic("SUBCOMMAND") + " [" + Italic("OPTIONS") + "] [" +
         Italic("ARGUMENTS") + "]\n";
  out +=
      ".SH DESCRIPTION\nfencescope shows how GPU work is synchronised: per-hardware-queue "
      "timelines, fence waits and signals, fence-signal interrupts and driver background "
      "work, from its own simulator, from other tools' traces it imports, or as headless "
      "reports.\n";
  out +=
      ".PP\nWith no subcommand, fencescope opens its window on a freshly simulated default "
      "scenario. Each subcommand below is also described by "
      "\\fBfencescope \\fISUBCOMMAND\\fB \\-\\-help\\fR.\n";
  out += ".SH OPTIONS\n" + ManLevel(formatter, {&app, ""});
  out += ".SH COMMANDS\n";
  for (const Level& level : Levels(app)) {
    if (!level.path.empty()) out += ManLevel(formatter, level);
  }
  out += ".SH FILES\n.TP\n" + Italic("*.db") +
         "\nfencescope trace databases: SQLite files with PRAGMA application_id 0x66656e63 "
         "(\"fenc\") and the meta row format = 'fencescope\\-trace'.\n";
  out += ".SH ENVIRONMENT\n.TP\n" + Bold("FENCESCOPE_HUGE_PAGES") +
         "\nfencescope starts itself once more with glibc's malloc on 2 MB pages "
         "(GLIBC_TUNABLES=glibc.malloc.hugetlb=1, put back as it was for what it starts): far "
         "fewer page faults on large traces. 0 keeps 4 KB pages. \\fBfencescope bench\\fR "
         "prints which it used.\n.TP\n" +
         Bold("FENCESCOPE_NO_CACHE") +
         "\nSet and not 0: traces are opened from their rows, without reading or writing their "
         "packed cache.\n.TP\n" +
         Bold("FENCESCOPE_VULKAN_LAYER_DIR") +
         "\nWhere \\fBfencescope capture\\fR finds its Vulkan capture layer (by default beside "
         "the binary, or in PREFIX/lib/fencescope/vulkan_layer).\n";
  out += ".SH SEE ALSO\n" + Bold("trace-cmd") + "(1), " + Bold("sqlite3") + "(1)\n";
  return out;
}

std::string BashCompletion(const CLI::App& app) {
  std::string levels_case, walk_case;
  for (const Level& level : Levels(app)) {
    const std::string key = SlashPath(level.path);
    if (!key.empty()) walk_case += "      " + key + ") cmdpath=" + key + " ;;\n";
    std::vector<std::string> options;
    for (const CLI::Option* option : NamedOptions(*level.app)) {
      for (const std::string& name : Names(*option)) options.push_back(name);
    }
    levels_case += fmt::format(
        "    \"{}\")\n      subcommands={}\n      options={}\n      valued={}\n", key,
        SingleQuoted(Join(ChildNames(*level.app), " ")), SingleQuoted(Join(options, " ")),
        SingleQuoted(Join(ValuedOptionNames(*level.app), " ")));
    std::string choices_case;
    for (const CLI::Option* option : NamedOptions(*level.app)) {
      const auto choices = Choices(*option);
      if (choices.empty()) continue;
      choices_case +=
          fmt::format("        {}) COMPREPLY=($(compgen -W {} -- \"$cur\")); return ;;\n",
                      Join(Names(*option), "|"), SingleQuoted(Join(choices, " ")));
    }
    if (!choices_case.empty()) {
      levels_case += "      case \"$prev\" in\n" + choices_case + "      esac\n";
    }
    levels_case += "      ;;\n";
  }
  return fmt::format(R"(# bash completion for fencescope. {}
_fencescope() {{
  local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
  local cmdpath="" i word
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${{COMP_WORDS[i]}}
    # After "--" come a program and its arguments (record, capture).
    if [[ $word == -- ]]; then COMPREPLY=(); return; fi
    case "$cmdpath/$word" in
{}    esac
  done
  local subcommands="" options="" valued=""
  case "$cmdpath" in
{}  esac
  COMPREPLY=()
  # The value of an option: file names (bash's default completion).
  if [[ " $valued " == *" $prev "* ]]; then return; fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
  elif [[ -n $subcommands ]]; then
    COMPREPLY=($(compgen -W "$subcommands" -- "$cur"))
  fi
  # Nothing here: bash completes file names (complete -o default).
}}
complete -o bashdefault -o default -F _fencescope fencescope
)",
                     kGenerated, walk_case, levels_case);
}

std::string ZshCompletion(const CLI::App& app) {
  std::string levels_case, walk_case;
  for (const Level& level : Levels(app)) {
    const std::string key = SlashPath(level.path);
    if (!key.empty()) walk_case += "      (" + key + ") cmdpath=" + key + " ;;\n";
    std::vector<std::string> subcommands, options;
    for (const CLI::App* child : VisibleSubcommands(*level.app)) {
      subcommands.push_back(
          SingleQuoted(child->get_name() + ":" + Short(child->get_description())));
    }
    std::string choices_case;
    for (const CLI::Option* option : NamedOptions(*level.app)) {
      for (const std::string& name : Names(*option)) {
        options.push_back(SingleQuoted(name + ":" + Short(option->get_description())));
      }
      const auto choices = Choices(*option);
      if (!choices.empty()) {
        choices_case += fmt::format("        ({}) compadd -- {}; return ;;\n",
                                    Join(Names(*option), "|"), Join(choices, " "));
      }
    }
    levels_case += fmt::format(
        "    (\"{}\")\n      subcommands=({})\n      options=({})\n      "
        "valued=({})\n",
        key, Join(subcommands, " "), Join(options, " "), Join(ValuedOptionNames(*level.app), " "));
    if (!choices_case.empty()) {
      levels_case += "      case $prev in\n" + choices_case + "      esac\n";
    }
    levels_case += "      ;;\n";
  }
  return fmt::format(R"(#compdef fencescope
# zsh completion for fencescope. {}
local cmdpath="" word prev=${{words[CURRENT-1]}}
local -i i
for ((i = 2; i < CURRENT; i++)); do
  word=${{words[i]}}
  # After "--" come a program and its arguments (record, capture).
  if [[ $word == -- ]]; then _normal; return; fi
  case "$cmdpath/$word" in
{}  esac
done
local -a subcommands options valued
case "$cmdpath" in
{}esac
# The value of an option: file names.
if (( ${{valued[(Ie)$prev]}} )); then _files; return; fi
if [[ ${{words[CURRENT]}} == -* ]]; then
  _describe -t options 'fencescope option' options
elif (( ${{#subcommands}} )); then
  _describe -t commands 'fencescope subcommand' subcommands
else
  _files
fi
)",
                     kGenerated, walk_case, levels_case);
}

std::string FishCompletion(const CLI::App& app) {
  std::string walk_case;
  std::string lines;
  for (const Level& level : Levels(app)) {
    const std::string key = "fencescope" + SlashPath(level.path);
    if (!level.path.empty())
      walk_case += "            case " + key + "\n                set cmdpath " + key + "\n";
    const std::string condition = SingleQuoted("__fencescope_at " + key);
    const auto children = VisibleSubcommands(*level.app);
    if (!children.empty() && Positionals(*level.app).empty()) {
      lines += fmt::format("complete -c fencescope -n {} -f\n", condition);
    }
    for (const CLI::App* child : children) {
      lines += fmt::format("complete -c fencescope -n {} -f -a {} -d {}\n", condition,
                           SingleQuoted(child->get_name()),
                           SingleQuoted(Short(child->get_description())));
    }
    for (const CLI::Option* option : NamedOptions(*level.app)) {
      std::string names;
      for (const std::string& s : option->get_snames()) names += " -s " + SingleQuoted(s);
      for (const std::string& l : option->get_lnames()) names += " -l " + SingleQuoted(l);
      std::string value;
      const auto choices = Choices(*option);
      if (!choices.empty()) {
        value = " -x -a " + SingleQuoted(Join(choices, " "));
      } else if (TakesValue(*option)) {
        value = " -r";
      }
      lines += fmt::format("complete -c fencescope -n {}{}{} -d {}\n", condition, names, value,
                           SingleQuoted(Short(option->get_description())));
    }
  }
  return fmt::format(R"(# fish completion for fencescope. {}
# The subcommand being completed, as fencescope/SUB/SUB (stops at "--": a program follows).
function __fencescope_path
    set -l cmdpath fencescope
    set -l words (commandline -opc)
    set -e words[1]
    for word in $words
        if test "$word" = --
            echo none
            return
        end
        switch "$cmdpath/$word"
{}        end
    end
    echo $cmdpath
end
function __fencescope_at
    test (__fencescope_path) = $argv[1]
end
{})",
                     kGenerated, walk_case, lines);
}

}  // namespace app::cli
