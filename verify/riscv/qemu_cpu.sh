#!/usr/bin/env bash
# qemu_cpu.sh NAME — the qemu-riscv64 -cpu string for one of the emulated CPUs the suite uses:
#   vlen128 vlen256 vlen512 vlen1024   V with that VLEN, and Zvkg
#   nozvkg                             V at VLEN 256 without Zvkg: the Zvkg kernels are unavailable
#   novector                           rv64gc: no V at all
# Anything containing "rv64" passes through unchanged.
case ${1:-} in
  vlen128|vlen256|vlen512|vlen1024) echo "rv64,v=true,vlen=${1#vlen},zvkg=true" ;;
  nozvkg) echo "rv64,v=true,vlen=256,zvkg=false" ;;
  novector) echo "rv64,v=false" ;;
  *rv64*) echo "$1" ;;
  *) echo "qemu_cpu.sh: unknown CPU '${1:-}' (vlen128 vlen256 vlen512 vlen1024 nozvkg novector)" >&2; exit 2 ;;
esac
