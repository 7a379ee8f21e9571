/*
 * A stand-in bcryptprimitives.dll for running polyproxy's Windows build
 * under Wine 8 in the tests (never shipped).
 *
 * Go 1.22 and later take their random numbers from ProcessPrng in
 * bcryptprimitives.dll, which every supported Windows has but Wine 8.0
 * does not: a Go program there dies in runtime.osinit before main. This
 * exports ProcessPrng over advapi32's SystemFunction036 (RtlGenRandom),
 * which Wine has. The Windows suite builds it with
 *   x86_64-w64-mingw32-gcc -shared -o bcryptprimitives.dll bcryptprimitives.c -ladvapi32
 * and puts it in its private Wine prefix's system32.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	/* RtlGenRandom takes a ULONG length: feed it a gigabyte at a time. */
	while (size > 0) {
		ULONG n = size > 0x40000000 ? 0x40000000 : (ULONG)size;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}
