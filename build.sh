#!/usr/bin/env bash
# The two commands of the README:
#   ./build.sh run    install what is missing, build (Release), open the window on a freshly
#                     simulated default scenario
#   ./build.sh test   install what is missing, build the suite twice and run it in each: without
#                     the window under ASan + UBSan (build/asan), and Release with the window
#                     (build/release, window tests under Xvfb)
#   ./build.sh package  install what is missing, build (Release, with the window) and write a .deb
#                     with CPack into build/release (dependencies from dpkg-shlibdeps, version
#                     from git describe), then check it with lintian
#   ./build.sh golden rewrite the golden files under tests/golden after an intended change
#   ./build.sh fuzz [SECONDS [--coverage]]  build the libFuzzer harnesses (clang, ASan + UBSan)
#                     in build/fuzz and run each for SECONDS (default 60), printing executions,
#                     executions a second and crashes; --coverage then runs fuzz-coverage
#   ./build.sh fuzz-coverage  line coverage of each fuzz harness's reader (llvm-cov)
#   ./build.sh fuzz-minimize  merge build/fuzz's corpus into the one kept in tests/fuzz/corpus
# Safe to run again: packages already present are not reinstalled, builds are incremental.
set -euo pipefail
cd "$(dirname "$0")"

# libtracefs-dev: libtracecmd.pc requires libtracefs, which Debian's libtracecmd-dev does not
# pull in (pkg-config then fails on a fresh machine).
BUILD_PACKAGES=(build-essential cmake pkg-config git ca-certificates ccache
  libsqlite3-dev zlib1g-dev libzstd-dev libcli11-dev libtomlplusplus-dev libsimdjson-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev libtracecmd-dev libtracefs-dev libtraceevent-dev
  libvulkan-dev)
GUI_PACKAGES=(libimgui-dev libstb-dev libglfw3-dev libgl-dev librsvg2-bin)
TEST_PACKAGES=(xvfb xauth python3 mesa-vulkan-drivers vulkan-tools vkd3d-demos
  dpkg-dev file lintian desktop-file-utils shared-mime-info xdg-utils libfile-mimeinfo-perl man-db
  zsh fish slurmctld slurmd slurm-client munge)
PACKAGE_PACKAGES=(dpkg-dev file lintian)
# llvm-14: llvm-profdata-14 and llvm-cov-14 for `fuzz-coverage`.
FUZZ_PACKAGES=(clang-14 libclang-rt-14-dev llvm-14 python3)

install_missing() {
  local missing=()
  for package in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$package")
    fi
  done
  if ((${#missing[@]})); then
    echo "build.sh: installing ${missing[*]}" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

jobs() { nproc 2>/dev/null || echo 2; }

# Each step of a command is announced; a failing one is named again at the end.
current_step=""
step() {
  current_step="$*"
  echo "==> build.sh $*" >&2
}
trap 'rc=$?; if [ "$rc" -ne 0 ] && [ -n "$current_step" ]; then
  echo "build.sh: FAILED (exit $rc) in step: $current_step" >&2; fi' EXIT

configure_and_build() {  # dir gui(ON|OFF) [more cmake options]
  # ccache: the second configuration compiles the same core, importer and test sources again;
  # with the cache those compile once.
  # CCACHE_NOHASHDIR: the sanitizer build carries debug line info, which would otherwise make
  # ccache key every object on the build directory's path (no reuse across checkouts).
  local dir="$1" gui="$2"
  shift 2
  export CCACHE_NOHASHDIR=true
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DFENCESCOPE_GUI="$gui" \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache "$@" >/dev/null
  cmake --build "$dir" -j"$(jobs)"
}

# The libFuzzer harnesses of tests/fuzz, in the order `fuzz` runs them.
FUZZ_HARNESSES=(chrome_json etl compressed_input scenario fail_if trace_db ftrace_text trace_dat
  systrace_html vulkan_records fleet_summary cache_blob nsys_sqlite rocprof xplane)

fuzz_configure() {  # dir [cmake options]: a clang build of the harnesses
  local dir="$1"
  shift
  export CCACHE_NOHASHDIR=true
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFENCESCOPE_GUI=OFF \
    -DBUILD_TESTING=OFF -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache "$@" >/dev/null
}

fuzz_seeds() {  # build dir: its seeds, with the real captures beside the repository if there
  local dir="$1"
  step "fuzz: seeds in $dir/seeds"
  local external=()
  if [ -d ../shared/traces/external ]; then external=(--external ../shared/traces/external); fi
  tests/fuzz/make_seeds.sh "$dir/app/fencescope" "$dir/tests/fuzz" "$dir/seeds" "${external[@]}"
}

# Line coverage of each harness's reader: the harnesses built with clang's source-based coverage
# (build/fuzz-coverage, no sanitizer) replay their seeds, the repository's corpus and
# regressions and build/fuzz/corpus once (tests/fuzz/coverage.sh); llvm-cov-14 reports.
fuzz_coverage() {
  step "fuzz-coverage: building build/fuzz-coverage (clang, -fprofile-instr-generate)"
  fuzz_configure build/fuzz-coverage -DFENCESCOPE_FUZZ_COVERAGE=ON
  cmake --build build/fuzz-coverage -j"$(jobs)"
  # The seeds of `fuzz` when it ran; else made here (its tools then write their own profiles,
  # kept out of the way).
  local seeds=build/fuzz/seeds
  if [ ! -d "$seeds" ]; then
    LLVM_PROFILE_FILE="$PWD/build/fuzz-coverage/seed-tools-%p.profraw" fuzz_seeds build/fuzz-coverage
    seeds=build/fuzz-coverage/seeds
  fi
  step "fuzz-coverage: replaying the corpora"
  tests/fuzz/coverage.sh build/fuzz-coverage "$seeds" build/fuzz/corpus "${FUZZ_HARNESSES[@]}"
}

case "${1:-}" in
  run)
    install_missing "${BUILD_PACKAGES[@]}" "${GUI_PACKAGES[@]}"
    configure_and_build build/release ON
    shift
    exec build/release/app/fencescope "$@"
    ;;
  test)
    install_missing "${BUILD_PACKAGES[@]}" "${GUI_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    # Two builds, each running the whole suite:
    # - build/asan: no window, ASan + UBSan at -O1. Being window-less it also proves that core,
    #   importers and the CLI need no UI library; any sanitizer finding fails its test.
    #   tests/CMakeLists.txt lists the few tests that cannot run there (reported as not run).
    #   It also runs the fuzz smoke (FuzzSmoke.*): the libFuzzer harnesses replaying their seeds
    #   and a fixed set of mutants (tests/fuzz/replay_main.cpp).
    # - build/release: the product as users build it, window tests under Xvfb.
    step "test: building build/asan (ASan + UBSan, no window)"
    configure_and_build build/asan OFF -DFENCESCOPE_SANITIZE=ON
    step "test: running the tests of build/asan"
    # lsan.supp: libtracecmd / libtraceevent leak inside themselves on some damaged .dat files
    # they fail to open (the bad-input tests give them some); the libraries' leaks, not
    # fencescope's.
    supp="$PWD/tests/fuzz/lsan.supp"
    (cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      LSAN_OPTIONS="suppressions=$supp" ctest --output-on-failure -j"$(jobs)")
    step "test: building build/release (Release, with the window)"
    configure_and_build build/release ON
    step "test: running the tests of build/release (window tests under Xvfb)"
    # -noreset: an X server resets when its last client leaves and refuses connections while it
    # does, which a window test starting at that moment (the tests run in parallel) would meet.
    (cd build/release && xvfb-run -a -s "-screen 0 1600x1000x24 -noreset" \
      ctest --output-on-failure -j"$(jobs)")
    step "test: all passed"
    ;;
  package)
    # The .deb (app/packaging/CMakeLists.txt): the binary, the Vulkan capture layer, the man page,
    # completions, desktop entry, icons and MIME types. Install with: sudo dpkg -i FILE.deb
    install_missing "${BUILD_PACKAGES[@]}" "${GUI_PACKAGES[@]}" "${PACKAGE_PACKAGES[@]}"
    step "package: building build/release (Release, with the window)"
    configure_and_build build/release ON
    step "package: cpack -G DEB"
    rm -f build/release/fencescope_*.deb
    (cd build/release && cpack -G DEB >/dev/null)
    deb=$(ls build/release/fencescope_*.deb)
    step "package: lintian $deb"
    lintian --fail-on error "$deb"
    echo "build.sh: wrote $deb (install with: sudo dpkg -i $deb)" >&2
    ;;
  golden)
    # After an intended change of behaviour: rewrite the golden files under tests/golden (every
    # embedded scenario's trace dump and report JSON, the importers' fixtures), then show what
    # changed. The diff is what a reviewer reads.
    install_missing "${BUILD_PACKAGES[@]}" python3
    configure_and_build build/nogui OFF
    FENCESCOPE_UPDATE_GOLDEN=1 build/nogui/tests/tests_golden
    git --no-pager diff --stat -- tests/golden || true
    ;;
  fuzz)
    # Harnesses in tests/fuzz (their list: tests/fuzz/README.md). Seeds (build/fuzz/seeds) come
    # from tests/fuzz/make_seeds.sh, plus the real captures of ../shared/traces/external cut
    # small when that folder is there (tests/fuzz/cut_external_seeds.py). Each harness starts
    # from its seeds, the minimized corpus kept in the repository (tests/fuzz/corpus/HARNESS)
    # and the inputs that once failed (tests/fuzz/regressions/HARNESS), with its dictionary
    # (tests/fuzz/dict) when it has one. New inputs go to build/fuzz/corpus (kept between runs),
    # crashing inputs to build/fuzz/artifacts/HARNESS/. `fuzz SECONDS --coverage` then measures
    # each harness's line coverage of its reader (fuzz-coverage below).
    seconds="${2:-60}"
    install_missing "${BUILD_PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"
    step "fuzz: building build/fuzz (clang, libFuzzer, ASan + UBSan)"
    fuzz_configure build/fuzz -DFENCESCOPE_FUZZ=ON
    cmake --build build/fuzz -j"$(jobs)"
    fuzz=build/fuzz
    fuzz_seeds "$fuzz"
    step "fuzz: running each harness for $seconds s"
    # A leak inside libtracecmd, not fencescope's (tests/fuzz/lsan.supp says which).
    export LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp"
    printf '%-24s %12s %10s %8s\n' harness executions "exec/s" crashes
    status=0
    for name in "${FUZZ_HARNESSES[@]}"; do
      corpus="$fuzz/corpus/$name"
      artifacts="$fuzz/artifacts/$name/"
      mkdir -p "$corpus" "$artifacts"
      inputs=("$corpus" "$fuzz/seeds/$name")
      for kept in tests/fuzz/corpus/$name tests/fuzz/regressions/$name; do
        if [ -d "$kept" ]; then inputs+=("$kept"); fi
      done
      options=()
      if [ -f "tests/fuzz/dict/$name.dict" ]; then options+=("-dict=tests/fuzz/dict/$name.dict"); fi
      # Trace databases: the seeds are ~55 KB images; longer ones would only slow the run.
      max_len=262144
      if [ "$name" = trace_db ]; then max_len=65536; fi
      # The importers reach ~14,000 coverage features an input: libFuzzer's entropic schedule
      # then spends half of each execution in its frequency bookkeeping. The plain schedule
      # runs twice the inputs a second (tests/fuzz/README.md, Figures).
      case "$name" in
        chrome_json | etl | trace_db | ftrace_text | trace_dat) options+=(-entropic=0) ;;
      esac
      # libtraceevent 1.7 leaks a token on many damaged event formats (tep_parse_event), and
      # libFuzzer scans the whole heap after each input that leaks: a third of the .dat runs.
      # Leaks are then looked for once, when the run ends (lsan.supp names the library's own;
      # fencescope's would be reported there with their stacks), not after each input.
      if [ "$name" = trace_dat ]; then options+=(-detect_leaks=0); fi
      log="$fuzz/fuzz_$name.log"
      before=$(find "$artifacts" -type f | wc -l)
      # One process, one job: the machine's cores are shared.
      "$fuzz/tests/fuzz/fuzz_$name" "${inputs[@]}" "${options[@]}" \
        -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len="$max_len" \
        -print_final_stats=1 -artifact_prefix="$artifacts" >"$log" 2>&1 || status=1
      after=$(find "$artifacts" -type f | wc -l)
      executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
      speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
      printf '%-24s %12s %10s %8s\n' "fuzz_$name" "${executions:-?}" "${speed:-?}" \
        "$((after - before))"
    done
    if [ "$status" -ne 0 ]; then
      echo "build.sh: a harness stopped at a crash; see $fuzz/fuzz_*.log and $fuzz/artifacts" >&2
    fi
    if [ "${3:-}" = "--coverage" ]; then fuzz_coverage; fi
    exit "$status"
    ;;
  fuzz-coverage)
    install_missing "${BUILD_PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"
    fuzz_coverage
    ;;
  fuzz-minimize)
    # Merges what the runs of build/fuzz found into the minimized corpus kept in the repository
    # (tests/fuzz/corpus/HARNESS): the smallest set of inputs reaching every coverage feature of
    # the old corpus and the new inputs (libFuzzer -merge=1). Review the size before committing.
    install_missing "${BUILD_PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"
    fuzz=build/fuzz
    export LSAN_OPTIONS="suppressions=$PWD/tests/fuzz/lsan.supp"
    for name in "${FUZZ_HARNESSES[@]}"; do
      [ -d "$fuzz/corpus/$name" ] || continue
      # These start from cuts of the real captures beside the repository as well
      # (cut_external_seeds.py): what their runs found is made of other projects' files, which
      # the repository does not keep.
      case "$name" in
        chrome_json | etl | ftrace_text | trace_dat | systrace_html) continue ;;
      esac
      merged="$fuzz/merged/$name"
      rm -rf "$merged"
      mkdir -p "$merged" tests/fuzz/corpus/$name
      "$fuzz/tests/fuzz/fuzz_$name" -merge=1 -max_len=262144 -timeout=20 -rss_limit_mb=4096 \
        "$merged" tests/fuzz/corpus/$name "$fuzz/corpus/$name" >"$fuzz/merge_$name.log" 2>&1
      rm -rf tests/fuzz/corpus/$name
      mv "$merged" tests/fuzz/corpus/$name
      printf '%-24s %6s files %8s\n' "fuzz_$name" "$(ls tests/fuzz/corpus/$name | wc -l)" \
        "$(du -sh tests/fuzz/corpus/$name | cut -f1)"
    done
    ;;
  *)
    echo "usage: ./build.sh run | test | package | golden | fuzz [SECONDS [--coverage]] |" \
      "fuzz-coverage | fuzz-minimize" >&2
    exit 2
    ;;
esac
