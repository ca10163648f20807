#!/usr/bin/env bash
# The two commands of the README:
#   ./build.sh run    install what is missing, build (Release), open the window on a freshly
#                     simulated default scenario
#   ./build.sh test   install what is missing, build both configurations (with and without the
#                     window), and run the whole test suite (window tests under Xvfb)
#   ./build.sh golden rewrite the golden files under tests/golden after an intended change
# Safe to run again: packages already present are not reinstalled, builds are incremental.
set -euo pipefail
cd "$(dirname "$0")"

BUILD_PACKAGES=(build-essential cmake pkg-config git ca-certificates ccache
  libsqlite3-dev zlib1g-dev libcli11-dev libtomlplusplus-dev libsimdjson-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev)
GUI_PACKAGES=(libimgui-dev libstb-dev libglfw3-dev libgl-dev)
TEST_PACKAGES=(xvfb xauth python3)

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

configure_and_build() {  # dir gui(ON|OFF)
  # ccache: the second configuration compiles the same core, importer and test sources again;
  # with the cache those compile once.
  cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=Release -DFENCESCOPE_GUI="$2" \
    -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache >/dev/null
  cmake --build "$1" -j"$(jobs)"
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
    # The window-less build first: it proves core, importers and the CLI need no UI library.
    configure_and_build build/nogui OFF
    (cd build/nogui && ctest --output-on-failure -j"$(jobs)")
    configure_and_build build/release ON
    (cd build/release && xvfb-run -a -s "-screen 0 1600x1000x24" \
      ctest --output-on-failure -j"$(jobs)")
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
  *)
    echo "usage: ./build.sh run | test | golden" >&2
    exit 2
    ;;
esac
