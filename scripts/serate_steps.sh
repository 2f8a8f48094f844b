#!/usr/bin/env bash
# serate's rating path, step by step (technique, difficulty, what each step placed or
# removed), for every puzzle of FILE: the data of tests/data/serate_steps.txt, which the
# rater's tests walk step by step.
#
#   scripts/serate_steps.sh FILE > steps.txt
#
# Needs a JDK and serate's classes (bash ../shared/peers/sukaku/build.sh DIR; set
# SERATE=DIR, default /tmp/serate). A forum-hardest puzzle takes serate minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
serate=${SERATE:-/tmp/serate}
[ $# -eq 1 ] || { sed -n '2,9p' "$0"; exit 2; }
[ -d "$serate/diuf" ] || { echo "no serate in $serate: bash ../shared/peers/sukaku/build.sh $serate" >&2; exit 2; }
classes=$(mktemp -d)
trap 'rm -rf "$classes"' EXIT
javac -nowarn -cp "$serate" -d "$classes" "$root/scripts/serate_steps/SerateSteps.java"
java -cp "$serate:$classes" SerateSteps "$1"
