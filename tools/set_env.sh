# set_env.sh - point CANN-style builds and programs at the ascendrtc
# simulated NPU home that contains this file.  Usage: source set_env.sh
_arc_here=$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)
export ASCEND_HOME_PATH="$_arc_here"
export ASCEND_TOOLKIT_HOME="$_arc_here"
case ":${LD_LIBRARY_PATH:-}:" in
    *":$_arc_here/lib64:"*) ;;
    *) export LD_LIBRARY_PATH="$_arc_here/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
esac
# find_package(ASC) and the ASC language's compiler (lib/cmake/ASC, bin/)
case ":${CMAKE_PREFIX_PATH:-}:" in
    *":$_arc_here:"*) ;;
    *) export CMAKE_PREFIX_PATH="$_arc_here${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}" ;;
esac
case ":${PATH:-}:" in
    *":$_arc_here/bin:"*) ;;
    *) export PATH="$_arc_here/bin${PATH:+:$PATH}" ;;
esac
unset _arc_here
