#!/bin/sh
# build.sh OUT [TCP_BBR2_C]: builds the peer's User-Mode Linux kernel from
# Debian's linux-source-6.1 (Linux 6.1 LTS) and writes it to OUT.
#
# With TCP_BBR2_C, the net/ipv4/tcp_bbr2.c of Google's BBRv2 alpha
# (github.com/google/bbr, branch v2alpha; the Makefile fetches it), the
# kernel also has BBRv2 as "bbr2": bbr2.patch, beside this script, adds the
# hooks the alpha's TCP stack gives it. The file must be the one the patch
# was made for (its SHA-256 below).
#
# Options: uml.config beside this script. HZ is 250, Debian's and Ubuntu's
# generic kernels' value, where UML fixes 100 (arch/um/Kconfig): HZ sets
# the jiffy-based timers TCP uses (the delayed-ACK timer, BIC's epoch).
set -eu
bbr2_sha256=47dda3c2258195ff185863e999411aae34b92292d7cd0d4e8ac74661f18eeaf8
out=$(realpath -m "$1")
bbr2=${2:+$(realpath -m "$2")}
if [ -n "$bbr2" ]; then
	echo "$bbr2_sha256  $bbr2" | sha256sum -c --status || {
		echo "build.sh: $bbr2 is not the tcp_bbr2.c bbr2.patch was made for (SHA-256 $bbr2_sha256)" >&2
		exit 1
	}
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(realpath -m "${WORK:-$(dirname "$out")/src}")
[ -f /usr/src/linux-source-6.1.tar.xz ] || { echo "build.sh: no /usr/src/linux-source-6.1.tar.xz: apt-get install linux-source-6.1 (make linuxpeerdeps)" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work"
tar -C "$work" -xf /usr/src/linux-source-6.1.tar.xz
cd "$work"/linux-source-6.1
sed -i '/^config HZ$/,/^$/ s/default 100/default 250/' arch/um/Kconfig
if [ -n "$bbr2" ]; then
	cp "$bbr2" net/ipv4/tcp_bbr2.c
	patch -p1 --quiet --no-backup-if-mismatch <"$here/bbr2.patch"
fi
make -s ARCH=um defconfig
grep -v '^#' "$here/uml.config" | grep . >>.config
echo '# CONFIG_MODULES is not set' >>.config
make -s ARCH=um olddefconfig
for want in CONFIG_UML_TIME_TRAVEL_SUPPORT=y CONFIG_NET_SCH_NETEM=y CONFIG_NET_SCH_HTB=y CONFIG_TCP_CONG_BBR=y CONFIG_TCP_CONG_BIC=y CONFIG_VETH=y CONFIG_BRIDGE=y CONFIG_HZ=250; do
	grep -qx "$want" .config || { echo "build.sh: $want did not take" >&2; exit 1; }
done
make -s ARCH=um -j"$(nproc)" linux
cp linux "$out"
