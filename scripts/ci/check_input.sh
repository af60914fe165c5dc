#!/usr/bin/env bash
# Validates one workflow input before anything uses it: typed inputs are checked by GitHub only for
# the UI, and an API dispatch (or a calling workflow) can send any string.
#
#   check_input.sh sha|count|label|path|name|repository NAME VALUE
#   sha: a full commit SHA; count: 1-999; label: a runner label; path: a relative path inside the
#   repository (no .. and no leading /); name: a CMake preset; repository: owner/name on GitHub.
# Exit: 0 valid, 2 invalid (with an ::error:: naming the input).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
(($# == 3)) || die "$EXIT_INVALID" "usage: $0 sha|count|label|path|name|repository NAME VALUE"
kind=$1 name=$2 value=$3
case "$kind" in
  sha) pattern='^[0-9a-f]{40}$' what="a full 40-character lowercase hex commit SHA" ;;
  count) pattern='^[1-9][0-9]{0,2}$' what="a whole number from 1 to 999" ;;
  label) pattern='^[a-z0-9][a-z0-9-]{0,31}$' what="a runner label (lowercase letters, digits, dashes)" ;;
  # Each component starts with a letter, digit or _, so neither .. nor a hidden folder's dot can occur.
  path) pattern='^[A-Za-z0-9_][A-Za-z0-9_.-]*(/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$|^\.$'
        what="a relative path inside the repository (letters, digits, _ . - and /; no .. or leading /)" ;;
  name) pattern='^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$' what="a CMake preset name (letters, digits, _ . -)" ;;
  repository) pattern='^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9_.-]{1,100}$' what="a GitHub repository, owner/name" ;;
  *) die "$EXIT_INVALID" "unknown input kind '$kind'" ;;
esac
if [[ ! $value =~ $pattern ]]; then
  echo "::error title=invalid input::$name must be $what"
  die "$EXIT_INVALID" "input $name must be $what"
fi
