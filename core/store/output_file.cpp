#include "core/store/output_file.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "core/model/error.h"

namespace core::store {
namespace fs = std::filesystem;
namespace {

const char* KindOf(const struct stat& st) {
  switch (st.st_mode & S_IFMT) {
    case S_IFDIR: return "a directory";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFIFO: return "a FIFO";
    case S_IFSOCK: return "a socket";
    default: return "not a regular file";
  }
}

// True when no process `pid` exists (a stale temporary file's writer was killed).
bool ProcessIsGone(long pid) {
  if (pid <= 0) return false;
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

void RemoveStaleTemporaries(const fs::path& target) {
  const std::string prefix = target.filename().string() + ".tmp-";
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::error_code ec;
  fs::directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    if (ProcessIsGone(std::stol(digits))) {
      std::error_code ignored;
      fs::remove(it->path(), ignored);
    }
  }
}

}  // namespace

fs::path ResolveOutputTarget(const fs::path& output) {
  fs::path target = output;
  for (int hops = 0;; ++hops) {
    struct stat st{};
    if (::lstat(target.c_str(), &st) != 0) return target;  // does not exist yet: created
    if (S_ISLNK(st.st_mode)) {
      if (hops >= 40) throw Error(output.string() + ": too many levels of symbolic links");
      std::error_code ec;
      const fs::path link = fs::read_symlink(target, ec);
      if (ec) throw Error(output.string() + ": cannot read the symbolic link: " + ec.message());
      target = link.is_absolute() ? link : target.parent_path() / link;
      continue;
    }
    if (!S_ISREG(st.st_mode)) {
      throw Error(output.string() + (target == output ? "" : " (-> " + target.string() + ")") +
                  ": the output exists and is " + KindOf(st) +
                  ", not a regular file; refusing to replace it");
    }
    return target;
  }
}

void CheckOutputIsNotInput(const fs::path& input, const fs::path& output, std::string_view what) {
  struct stat in{}, out{};
  const bool same_path = fs::absolute(input).lexically_normal() ==
                         fs::absolute(output).lexically_normal();
  const bool same_file = ::stat(input.c_str(), &in) == 0 && ::stat(output.c_str(), &out) == 0 &&
                         in.st_dev == out.st_dev && in.st_ino == out.st_ino;
  if (same_path || same_file) {
    throw Error(output.string() + ": the output is the " + std::string(what) + " " +
                input.string() + (same_path ? "" : " (the same file by another name)") +
                "; refusing to overwrite it (choose another output file)");
  }
}

fs::path PrepareTemporaryFor(const fs::path& target) {
  RemoveStaleTemporaries(target);
  fs::path temp = target;
  temp += ".tmp-" + std::to_string(static_cast<long>(::getpid()));
  std::error_code ignored;
  fs::remove(temp, ignored);
  return temp;
}

void CommitTemporary(const fs::path& temp, const fs::path& target) {
  const int fd = ::open(temp.c_str(), O_RDONLY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  std::error_code ec;
  fs::rename(temp, target, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw Error(target.string() + ": cannot move the finished file into place: " + ec.message());
  }
}

void WriteFileAtomically(const fs::path& output,
                         const std::function<bool(const fs::path& temp)>& write) {
  const fs::path target = ResolveOutputTarget(output);
  const fs::path temp = PrepareTemporaryFor(target);
  bool ok = false;
  try {
    ok = write(temp);
  } catch (...) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw;
  }
  if (!ok) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    throw Error(output.string() + ": cannot write the output file");
  }
  CommitTemporary(temp, target);
}

void WriteFileAtomically(const fs::path& output, std::string_view content) {
  WriteFileAtomically(output, [&content](const fs::path& temp) {
    FILE* file = std::fopen(temp.c_str(), "wb");
    if (!file) return false;
    bool ok = std::fwrite(content.data(), 1, content.size(), file) == content.size();
    ok = std::fclose(file) == 0 && ok;
    return ok;
  });
}

}  // namespace core::store
