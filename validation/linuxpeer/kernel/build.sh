#!/bin/sh
# build.sh OUT: builds the peer's User-Mode Linux kernel from Debian's
# linux-source-6.1 (Linux 6.1 LTS) and writes it to OUT.
#
# Options: uml.config beside this script. HZ is 250, Debian's and Ubuntu's
# generic kernels' value, where UML fixes 100 (arch/um/Kconfig): HZ sets
# the jiffy-based timers TCP uses (the delayed-ACK timer, BIC's epoch).
set -eu
out=$(realpath -m "$1")
here=$(cd "$(dirname "$0")" && pwd)
work=$(realpath -m "${WORK:-$(dirname "$out")/src}")
[ -f /usr/src/linux-source-6.1.tar.xz ] || { echo "build.sh: no /usr/src/linux-source-6.1.tar.xz: apt-get install linux-source-6.1 (make linuxpeerdeps)" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
tar -C "$work" -xf /usr/src/linux-source-6.1.tar.xz
cd "$work"/linux-source-6.1
sed -i '/^config HZ$/,/^$/ s/default 100/default 250/' arch/um/Kconfig
make -s ARCH=um defconfig
grep -v '^#' "$here/uml.config" | grep . >>.config
echo '# CONFIG_MODULES is not set' >>.config
make -s ARCH=um olddefconfig
for want in CONFIG_UML_TIME_TRAVEL_SUPPORT=y CONFIG_NET_SCH_NETEM=y CONFIG_NET_SCH_HTB=y CONFIG_TCP_CONG_BBR=y CONFIG_TCP_CONG_BIC=y CONFIG_VETH=y CONFIG_BRIDGE=y CONFIG_HZ=250; do
	grep -qx "$want" .config || { echo "build.sh: $want did not take" >&2; exit 1; }
done
make -s ARCH=um -j"$(nproc)" linux
cp linux "$out"
