# Sourced by the scripts that compile code against the library the main build made
# (check-fuzz-sources.sh, check-doc-examples.sh). The library imports the package's C targets
# (every Sources/<Target>/include), whose module maps the build generates: a compile against
# the library's modules must be handed them.
#
# library_module_maps BIN: sets the array `moduleMaps` to the -Xcc -fmodule-map-file=… options
# for every C target built in BIN; returns 1 when one of them has not been built.
library_module_maps() {
  local bin=$1 include target map
  moduleMaps=()
  for include in Sources/*/include; do
    [ -d "$include" ] || continue
    target=$(basename "$(dirname "$include")")
    map="$bin/$target.build/module.modulemap"
    [ -f "$map" ] || return 1
    moduleMaps+=(-Xcc -fmodule-map-file="$map")
  done
}
