// A trace file dropped onto the running window opens in it. The drop comes from another X client
// speaking the XDND protocol as a file manager does (XdndEnter, XdndPosition, XdndDrop, then the
// file's URI handed over through the XdndSelection selection), to a `fencescope view` started as
// a user starts it; what it opened is read from its recent files (settings.txt), which the window
// writes whenever a trace opens.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_support.h"
#include "tests/ui/window_test_env.h"

// Last: Xlib defines macros (None, Bool, Status) that other headers use as names.
#include <X11/Xatom.h>
#include <X11/Xlib.h>

namespace {

using namespace test_support;  // NOLINT
using Clock = std::chrono::steady_clock;

// XDND version 5 (the one GLFW speaks); the type offered is a URI list.
constexpr long kXdndVersion = 5;

// Other tests' windows come and go on the same display: one can be destroyed between
// XQueryTree listing it and XGetWindowProperty reading it. Xlib's default handler ends the
// process on that BadWindow; this one lets the call fail instead (it then returns an error code
// or no data, which the callers below read as "not our window").
int IgnoreXError(Display*, XErrorEvent*) {
  return 0;
}

class XConnection {
 public:
  XConnection() : m_display(XOpenDisplay(nullptr)) { XSetErrorHandler(IgnoreXError); }
  ~XConnection() {
    if (m_display) XCloseDisplay(m_display);
  }
  XConnection(const XConnection&) = delete;
  XConnection& operator=(const XConnection&) = delete;
  Display* get() const { return m_display; }
  Atom atom(const char* name) const { return XInternAtom(m_display, name, False); }

 private:
  Display* m_display;
};

std::optional<long> CardinalProperty(Display* display, Window window, Atom property) {
  Atom type = None;
  int format = 0;
  unsigned long count = 0, after = 0;
  unsigned char* data = nullptr;
  if (XGetWindowProperty(display, window, property, 0, 1, False, XA_CARDINAL, &type, &format,
                         &count, &after, &data) != Success) {
    return std::nullopt;
  }
  std::optional<long> value;
  if (data && format == 32 && count == 1) value = *reinterpret_cast<long*>(data);
  if (data) XFree(data);
  return value;
}

bool HasProperty(Display* display, Window window, Atom property) {
  int count = 0;
  Atom* atoms = XListProperties(display, window, &count);
  bool found = false;
  for (int i = 0; i < count; ++i) found = found || atoms[i] == property;
  if (atoms) XFree(atoms);
  return found;
}

// The top-level window of process `pid` (GLFW sets _NET_WM_PID) that accepts drops (XdndAware).
// Other tests' windows share the display, so the pid is what tells ours.
std::optional<Window> WindowOfProcess(const XConnection& x, pid_t pid) {
  Window root_return = 0, parent = 0;
  Window* children = nullptr;
  unsigned int count = 0;
  Display* d = x.get();
  if (!XQueryTree(d, DefaultRootWindow(d), &root_return, &parent, &children, &count)) {
    return std::nullopt;
  }
  std::optional<Window> found;
  for (unsigned int i = 0; i < count && !found; ++i) {
    if (CardinalProperty(d, children[i], x.atom("_NET_WM_PID")) == pid &&
        HasProperty(d, children[i], x.atom("XdndAware"))) {
      found = children[i];
    }
  }
  if (children) XFree(children);
  return found;
}

void SendClientMessage(Display* d, Window to, Atom type, std::initializer_list<long> data) {
  XEvent event{};
  event.xclient.type = ClientMessage;
  event.xclient.display = d;
  event.xclient.window = to;
  event.xclient.message_type = type;
  event.xclient.format = 32;
  int i = 0;
  for (long value : data) event.xclient.data.l[i++] = value;
  XSendEvent(d, to, False, NoEventMask, &event);
  XFlush(d);
}

// Waits up to `timeout` for an event on `source` that `match` accepts; every event seen is
// handed to `match`.
bool AwaitEvent(Display* d, const std::function<bool(const XEvent&)>& match,
                std::chrono::seconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    while (XPending(d)) {
      XEvent event;
      XNextEvent(d, &event);
      if (match(event)) return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// Drops `path` onto `target` at its centre, as a file manager would. Returns what failed, or ""
// when the target took the file and said it finished.
std::string DropFile(const XConnection& x, Window target, const std::filesystem::path& path) {
  Display* d = x.get();
  const Window root = DefaultRootWindow(d);
  const Window source = XCreateSimpleWindow(d, root, 0, 0, 1, 1, 0, 0, 0);
  const Atom selection = x.atom("XdndSelection"), uri_list = x.atom("text/uri-list");
  XSetSelectionOwner(d, selection, source, CurrentTime);
  if (XGetSelectionOwner(d, selection) != source) return "could not own XdndSelection";

  XWindowAttributes attributes{};
  if (!XGetWindowAttributes(d, target, &attributes)) return "the window went away before the drop";
  int root_x = 0, root_y = 0;
  Window child = 0;
  XTranslateCoordinates(d, target, root, attributes.width / 2, attributes.height / 2, &root_x,
                        &root_y, &child);

  SendClientMessage(d, target, x.atom("XdndEnter"),
                    {static_cast<long>(source), kXdndVersion << 24, static_cast<long>(uri_list)});
  SendClientMessage(d, target, x.atom("XdndPosition"),
                    {static_cast<long>(source), 0, (root_x << 16) | root_y, CurrentTime,
                     static_cast<long>(x.atom("XdndActionCopy"))});
  bool accepted = false;
  if (!AwaitEvent(
          d,
          [&](const XEvent& e) {
            if (e.type != ClientMessage || e.xclient.message_type != x.atom("XdndStatus"))
              return false;
            accepted = (e.xclient.data.l[1] & 1) != 0;
            return true;
          },
          std::chrono::seconds(10))) {
    return "no XdndStatus from the window";
  }
  if (!accepted) return "the window refused a text/uri-list drop";

  SendClientMessage(d, target, x.atom("XdndDrop"), {static_cast<long>(source), 0, CurrentTime});
  // The window asks for the data: answer with the file's URI (RFC 2483 list, CRLF-terminated).
  const std::string uris = "file://" + path.string() + "\r\n";
  bool handed_over = false;
  if (!AwaitEvent(
          d,
          [&](const XEvent& e) {
            if (e.type != SelectionRequest) return false;
            const XSelectionRequestEvent& request = e.xselectionrequest;
            XEvent reply{};
            reply.xselection.type = SelectionNotify;
            reply.xselection.display = d;
            reply.xselection.requestor = request.requestor;
            reply.xselection.selection = request.selection;
            reply.xselection.target = request.target;
            reply.xselection.time = request.time;
            reply.xselection.property = None;
            if (request.target == uri_list) {
              XChangeProperty(d, request.requestor, request.property, uri_list, 8, PropModeReplace,
                              reinterpret_cast<const unsigned char*>(uris.data()),
                              static_cast<int>(uris.size()));
              reply.xselection.property = request.property;
              handed_over = true;
            }
            XSendEvent(d, request.requestor, False, NoEventMask, &reply);
            XFlush(d);
            return true;
          },
          std::chrono::seconds(10))) {
    return "the window never asked for the dropped data";
  }
  if (!handed_over) return "the window asked for a type other than text/uri-list";
  if (!AwaitEvent(
          d,
          [&](const XEvent& e) {
            return e.type == ClientMessage && e.xclient.message_type == x.atom("XdndFinished");
          },
          std::chrono::seconds(10))) {
    return "no XdndFinished from the window";
  }
  XDestroyWindow(d, source);
  XFlush(d);
  return "";
}

// `fencescope view ARGS...` as a child process with its own config and data folders; ended with
// SIGTERM when the object goes.
class RunningView {
 public:
  RunningView(const ScratchDir& dir, const std::vector<std::string>& files) {
    m_pid = fork();
    if (m_pid == 0) {
      IsolateUserDirs(dir);
      if (!freopen((dir / "view.out").c_str(), "w", stdout) ||
          !freopen((dir / "view.err").c_str(), "w", stderr)) {
        _exit(126);
      }
      std::vector<std::string> args{FENCESCOPE_EXECUTABLE, "view"};
      args.insert(args.end(), files.begin(), files.end());
      std::vector<char*> argv;
      for (auto& arg : args) argv.push_back(arg.data());
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
  }
  ~RunningView() {
    if (m_pid > 0 && !Exited()) {
      kill(m_pid, SIGTERM);
      waitpid(m_pid, nullptr, 0);
    }
  }
  RunningView(const RunningView&) = delete;
  RunningView& operator=(const RunningView&) = delete;
  pid_t pid() const { return m_pid; }
  bool Exited() {
    if (m_exited) return true;
    int status = 0;
    m_exited = waitpid(m_pid, &status, WNOHANG) == m_pid;
    return m_exited;
  }

 private:
  pid_t m_pid = -1;
  bool m_exited = false;
};

// The recent files the window saved (most recent first).
std::vector<std::string> RecentFiles(const std::filesystem::path& settings) {
  std::vector<std::string> files;
  std::istringstream in(std::filesystem::exists(settings) ? ReadFile(settings) : "");
  const std::string key = "recent = ";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(key, 0) == 0) files.push_back(line.substr(key.size()));
  }
  return files;
}

bool WaitFor(const std::function<bool()>& done, std::chrono::seconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return done();
}

TEST(DroppedFile, ATraceDroppedOntoTheWindowOpensInIt) {
  ASSERT_TRUE(HaveDisplay()) << kNeedsDisplay;
  ScratchDir dir;
  const auto first =
      std::filesystem::absolute(SimulateTrace(dir / "first.db", "default --duration-ms 30"));
  const auto dropped = std::filesystem::absolute(
      SimulateTrace(dir / "dropped.db", "async_compute_graphics --duration-ms 30"));
  const auto settings = dir / "config" / "fencescope" / "settings.txt";

  XConnection x;
  ASSERT_NE(x.get(), nullptr) << "cannot connect to display " << std::getenv("DISPLAY");
  RunningView view(dir, {first.string()});
  std::optional<Window> window;
  ASSERT_TRUE(WaitFor(
      [&] {
        window = WindowOfProcess(x, view.pid());
        return window && RecentFiles(settings) == std::vector<std::string>{first.string()};
      },
      std::chrono::seconds(60)))
      << "the window of `view first.db` did not show the trace; stderr:\n"
      << ReadFile(dir / "view.err");

  const std::string failure = DropFile(x, *window, dropped);
  ASSERT_EQ(failure, "") << "stderr of view:\n" << ReadFile(dir / "view.err");
  // The dropped trace opened (it is now the most recent), and the window is still running.
  EXPECT_TRUE(WaitFor(
      [&] {
        return RecentFiles(settings) == std::vector<std::string>{dropped.string(), first.string()};
      },
      std::chrono::seconds(60)))
      << "recent files: " << ::testing::PrintToString(RecentFiles(settings)) << "\nstderr:\n"
      << ReadFile(dir / "view.err");
  EXPECT_FALSE(view.Exited()) << ReadFile(dir / "view.err");
}

}  // namespace
