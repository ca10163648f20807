#!/usr/bin/env python3
"""Installing fencescope as a user would (tests/CMakeLists.txt registers one CTest test per check).

  package  BUILD WORK   cpack -G DEB on the build folder, then the .deb unpacked into a fresh root
                        (WORK/root, dpkg-deb -x): the fixture the other checks use
  run, desktop, mime, man, lintian, bash, zsh, fish  WORK   checks on that package and the
                        installed tree

Every command is the installed one (WORK/root/usr/bin/fencescope) and the subcommands it must
document or complete are read from its own --help, never from a list kept here. A check whose tool
is missing exits 77, which CTest reports as skipped, with the reason on stderr.
"""
import gzip
import os
import re
import shutil
import struct
import subprocess
import sys

SKIP = 77


def skip(reason):
    print("SKIPPED: " + reason, file=sys.stderr)
    sys.exit(SKIP)


def fail(message):
    print("FAILED: " + message, file=sys.stderr)
    sys.exit(1)


def need(*tools):
    for tool in tools:
        if shutil.which(tool) is None:
            skip("%s is not installed (./build.sh test installs it)" % tool)


def run(args, env=None, cwd=None, check=True):
    result = subprocess.run(args, capture_output=True, text=True, env=env, cwd=cwd, timeout=120)
    if check and result.returncode != 0:
        fail("%s exited %d\nstdout:\n%s\nstderr:\n%s" % (" ".join(args), result.returncode,
                                                         result.stdout, result.stderr))
    return result


def root_of(work):
    root = os.path.join(work, "root")
    if not os.path.exists(os.path.join(root, "usr", "bin", "fencescope")):
        skip("no installed tree in %s: the Install.Package fixture did not build one" % root)
    return root


def fencescope(root):
    return os.path.join(root, "usr", "bin", "fencescope")


def subcommand_paths(binary, path=()):
    """Every subcommand path (("bench", "import"), ...) read from `fencescope [PATH] --help`."""
    text = run([binary, *path, "--help"]).stdout
    paths = []
    if "Subcommands:" in text:
        for line in text.split("Subcommands:", 1)[1].splitlines():
            match = re.match(r"^  (\S+)(\s|$)", line)
            if match:
                sub = path + (match.group(1),)
                paths.append(sub)
                paths.extend(subcommand_paths(binary, sub))
            elif line.strip() and not line.startswith("   "):
                break
    return paths


def children(paths, path):
    return [p[-1] for p in paths if len(p) == len(path) + 1 and p[:len(path)] == path]


def levels(paths):
    return [()] + [p for p in paths if children(paths, p)]


def package(build, work):
    need("cpack", "dpkg-deb", "dpkg-shlibdeps")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    run(["cpack", "-G", "DEB", "--config", os.path.join(build, "CPackConfig.cmake"), "-B",
         os.path.join(work, "cpack")])
    debs = [f for f in os.listdir(os.path.join(work, "cpack")) if f.endswith(".deb")]
    if len(debs) != 1:
        fail("cpack wrote %s, not one .deb" % debs)
    deb = os.path.join(work, "cpack", debs[0])
    shutil.copy(deb, os.path.join(work, "fencescope.deb"))
    control = run(["dpkg-deb", "-f", deb]).stdout
    for field in ("Package: fencescope", "Version: ", "Depends: ", "Maintainer: "):
        if field not in control:
            fail("the package's control file has no %r:\n%s" % (field, control))
    depends = re.search(r"^Depends: (.*)$", control, re.M).group(1)
    for library in ("libsqlite3-0", "libc6", "libglfw3"):
        if library not in depends:
            fail("Depends (from dpkg-shlibdeps) lacks %s: %s" % (library, depends))
    run(["dpkg-deb", "-x", deb, os.path.join(work, "root")])


def check_lintian(work):
    root_of(work)
    need("lintian")
    deb = os.path.join(work, "fencescope.deb")
    result = run(["lintian", "--fail-on", "error", deb], check=False)
    if result.returncode != 0:
        fail("lintian reports errors:\n" + result.stdout + result.stderr)


def check_run(work):
    root = root_of(work)
    binary = fencescope(root)
    need("ldd")
    missing = [l for l in run(["ldd", binary]).stdout.splitlines() if "not found" in l]
    if missing:
        fail("libraries the installed binary cannot find:\n" + "\n".join(missing))
    version = run([binary, "--version"]).stdout
    deb_version = run(["dpkg-deb", "-f", os.path.join(work, "fencescope.deb"), "Version"]).stdout
    if not version.startswith("fencescope %s\n" % deb_version.strip()):
        fail("--version says %r, the package is version %r" % (version, deb_version.strip()))
    if not re.search(r"trace schema version \d+", version):
        fail("--version does not name the trace schema version: %r" % version)
    layer = os.path.join(root, "usr", "lib", "fencescope", "vulkan_layer")
    if os.path.isdir(layer) and not os.path.exists(
            os.path.join(layer, "VkLayer_fencescope_capture.json")):
        fail("the capture layer is installed without its manifest")
    scratch = os.path.join(work, "run")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    run([binary, "simulate", "default", "-o", "t.db"], cwd=scratch)
    if not os.environ.get("DISPLAY"):
        skip("no display (DISPLAY unset) for `view --screenshot`: run under xvfb-run "
             "(--version and simulate passed)")
    run([binary, "view", "t.db", "--screenshot", "out.png"], cwd=scratch)
    with open(os.path.join(scratch, "out.png"), "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        fail("view --screenshot wrote no PNG")
    width, height = struct.unpack(">II", head[16:24])
    if (width, height) != (1600, 1000):
        fail("the screenshot is %dx%d, not the window's 1600x1000" % (width, height))


def check_desktop(work):
    root = root_of(work)
    need("desktop-file-validate")
    entry = os.path.join(root, "usr", "share", "applications", "fencescope.desktop")
    result = run(["desktop-file-validate", entry], check=False)
    if result.returncode != 0 or result.stdout.strip() or result.stderr.strip():
        fail("desktop-file-validate:\n" + result.stdout + result.stderr)
    text = open(entry).read()
    for line in ("Exec=fencescope view %F", "Categories=Development;Profiling;", "Icon=fencescope",
                 "application/x-fencescope-trace;"):
        if line not in text:
            fail("the desktop entry lacks %r" % line)
    icons = os.path.join(root, "usr", "share", "icons", "hicolor")
    if not os.path.exists(os.path.join(icons, "scalable", "apps", "fencescope.svg")):
        fail("no scalable icon")
    for size in (16, 32, 48, 64, 128, 256):
        png = os.path.join(icons, "%dx%d" % (size, size), "apps", "fencescope.png")
        if not os.path.exists(png):
            fail("no %dx%d icon (%s)" % (size, size, png))
        with open(png, "rb") as f:
            head = f.read(24)
        if struct.unpack(">II", head[16:24]) != (size, size):
            fail("%s is not %dx%d" % (png, size, size))
    # the types the entry opens are the ones the MIME file defines
    declared = set(re.findall(r'<mime-type type="([^"]+)"', open(
        os.path.join(root, "usr", "share", "mime", "packages", "fencescope.xml")).read()))
    listed = set(filter(None, re.search(r"^MimeType=(.*)$", text, re.M).group(1).split(";")))
    if declared != listed:
        fail("MimeType= lists %s, fencescope.xml defines %s" % (sorted(listed), sorted(declared)))


def check_mime(work):
    root = root_of(work)
    need("update-mime-database", "xdg-mime")
    if shutil.which("mimetype") is None:
        skip("mimetype (libfile-mimeinfo-perl) is not installed: without it xdg-mime asks "
             "file(1), which does not read the shared-mime-info database")
    data = os.path.join(work, "mime-data")
    shutil.rmtree(data, ignore_errors=True)
    shutil.copytree(os.path.join(root, "usr", "share", "mime"), os.path.join(data, "mime"))
    run(["update-mime-database", os.path.join(data, "mime")])
    env = {k: v for k, v in os.environ.items()
           if k not in ("XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "KDE_FULL_SESSION",
                        "GNOME_DESKTOP_SESSION_ID", "XDG_SESSION_DESKTOP")}
    env["XDG_DATA_DIRS"] = data + ":/usr/share"
    env["XDG_DATA_HOME"] = os.path.join(work, "mime-home")
    scratch = os.path.join(work, "mime-files")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    trace = os.path.join(scratch, "t.db")
    run([fencescope(root), "simulate", "default", "-o", trace, "--duration-ms", "1"])
    kind = run(["xdg-mime", "query", "filetype", trace], env=env).stdout.strip()
    if kind != "application/x-fencescope-trace":
        fail("xdg-mime query filetype names a trace %r, not application/x-fencescope-trace" % kind)
    # another SQLite database is not claimed
    other = os.path.join(scratch, "other.db")
    with open(trace, "rb") as f:
        data_bytes = bytearray(f.read())
    data_bytes[68:72] = b"\0\0\0\0"
    with open(other, "wb") as f:
        f.write(data_bytes)
    kind = run(["xdg-mime", "query", "filetype", other], env=env).stdout.strip()
    if kind == "application/x-fencescope-trace":
        fail("an SQLite file without fencescope's application_id is named a fencescope trace")
    # the import formats, each by the name or content mark fencescope.xml gives it
    etw = b"\0" * 64
    chrome = b'{"traceEvents": [{"name": "a", "ph": "X", "ts": 1, "dur": 2}]}'
    samples = {
        "capture.etl": (etw, "application/x-etw-trace"),
        "worker0.pt.trace.json": (chrome, "application/x-chrome-trace"),
        # no name to go by: the content mark (a .json name goes to application/json first)
        "rank3_profile": (b'{"schemaVersion": 1, ' + chrome[1:], "application/x-chrome-trace"),
        "worker0.pt.trace.json.gz": (gzip.compress(chrome), "application/x-chrome-trace-gzip"),
        "trace.dat": (b"\x17\x08Dtracing6\0", "application/x-trace-cmd"),
        "gpu.dat": (b"\x17\x08Dtracing6\0", "application/x-trace-cmd"),
        "ftrace_dump": (b"# tracer: nop\n#\n", "text/x-ftrace"),  # `cat .../tracing/trace`
    }
    for name, (content, expected) in samples.items():
        path = os.path.join(scratch, name)
        with open(path, "wb") as f:
            f.write(content)
        kind = run(["xdg-mime", "query", "filetype", path], env=env).stdout.strip()
        if kind != expected:
            fail("xdg-mime query filetype names %s %r, not %s" % (name, kind, expected))
    # an ordinary JSON file stays JSON
    plain = os.path.join(scratch, "settings.json")
    with open(plain, "w") as f:
        f.write('{"theme": "dark"}')
    kind = run(["xdg-mime", "query", "filetype", plain], env=env).stdout.strip()
    if kind != "application/json":
        fail("xdg-mime names a plain JSON file %r, not application/json" % kind)


def check_man(work):
    root = root_of(work)
    need("man")
    page = os.path.join(root, "usr", "share", "man", "man1", "fencescope.1.gz")
    env = dict(os.environ, MANWIDTH="100", MAN_KEEP_FORMATTING="", LC_ALL="C.UTF-8")
    result = run(["man", "--warnings", "-l", page], env=env)
    warnings = [l for l in result.stderr.splitlines() if l.strip()]
    if warnings:
        fail("man -l warns:\n" + "\n".join(warnings))
    text = re.sub(r".\x08", "", result.stdout)
    version = run([fencescope(root), "--version"]).stdout.splitlines()[0]
    if version not in text:
        fail("the man page does not carry the binary's version %r (both are written at build "
             "time: was only part of the build folder rebuilt?)" % version)
    for path in subcommand_paths(fencescope(root)):
        heading = re.search(r"^ {1,4}fencescope %s\n" % re.escape(" ".join(path)), text, re.M)
        if not heading:
            fail("the man page has no section for 'fencescope %s'" % " ".join(path))
    if text.count("Examples:") < len(subcommand_paths(fencescope(root))):
        fail("not every subcommand's section has examples")


def bash_names(script, path):
    words = " ".join(("fencescope",) + path)
    out = run(["bash", "-c", 'source "$1"; read -ra COMP_WORDS <<< "$2"; COMP_WORDS+=("");'
               ' COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _fencescope;'
               ' printf "%s\\n" "${COMPREPLY[@]}"', "bash", script, words]).stdout
    return out.split()


def zsh_names(script, path):
    # The completion function with zsh's completion helpers replaced by ones that print what
    # they were given.
    program = ('_describe() { print -l -- "${(@P)${@[-1]}}" }; _files() {}; _normal() {};'
               ' compadd() { }; _fencescope() { source "$1" };'
               ' words=(fencescope "${(@)argv[2,-1]}" ""); CURRENT=${#words}; _fencescope "$1"')
    out = run(["zsh", "-f", "-c", program, "zsh", script, *path]).stdout
    return [l.split(":", 1)[0] for l in out.splitlines() if l]


def fish_names(script, path):
    line = " ".join(("fencescope",) + path) + " "
    out = run(["fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", script,
               line]).stdout
    return [l.split("\t", 1)[0] for l in out.splitlines() if l]


# shell: (installed file under usr/share, what it completes after `fencescope PATH `)
COMPLETIONS = {
    "bash": ("bash-completion/completions/fencescope", bash_names),
    "zsh": ("zsh/vendor-completions/_fencescope", zsh_names),
    "fish": ("fish/vendor_completions.d/fencescope.fish", fish_names),
}


def check_completion(work, shell):
    """At every level with subcommands, the shell offers exactly those --help lists."""
    root = root_of(work)
    need(shell)
    relative, names = COMPLETIONS[shell]
    script = os.path.join(root, "usr", "share", relative)
    paths = subcommand_paths(fencescope(root))
    for path in levels(paths):
        got, expected = names(script, path), children(paths, path)
        if sorted(got) != sorted(expected):
            fail("%s completes 'fencescope %s' with %s; --help lists %s" % (
                shell, " ".join(path), sorted(got), sorted(expected)))


def main():
    if len(sys.argv) < 3:
        fail("usage: install_test.py package BUILD WORK | CHECK WORK")
    check = sys.argv[1]
    if check == "package":
        package(sys.argv[2], sys.argv[3])
        return
    checks = {"run": check_run, "desktop": check_desktop, "mime": check_mime, "man": check_man,
              "lintian": check_lintian}
    for shell in COMPLETIONS:
        checks[shell] = lambda work, shell=shell: check_completion(work, shell)
    if check not in checks:
        fail("unknown check " + check)
    checks[check](sys.argv[2])


if __name__ == "__main__":
    main()
