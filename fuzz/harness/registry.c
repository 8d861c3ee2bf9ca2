/* registry.c — availability of registered implementations (family.h). */
#include "cpu.h"
#include "family.h"

const char *impl_unavailable(const struct impl_info *info)
{
    return cpu_unavailable_reason(info->needs);
}
