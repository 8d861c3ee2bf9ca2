/* camellia_aria_ratio: Camellia's AVX-512 forms timed against ARIA-128/192/256 ternlog in ONE
 * process, so that the ratios survive a shared, busy machine (the kernels' header comments quote
 * its output).  Every variant (form x key size x ECB encrypt / ECB decrypt / CTR, 16 KiB per
 * call) runs 8 calls in turn, round-robin, TRIALS times (default 300); the fastest ns/byte of
 * each is kept; cycles/byte from a clock estimated by a dependent chain of adds.  Not part of
 * the build (it needs an AVX-512 + GFNI host); from the source root:
 *   clang-19 -O2 -I. -o /tmp/ratio tools/camellia_aria_ratio.c reference/camellia.c \
 *     reference/aria.c kernels/camellia/camellia-x86_64-avx512-gfni.S \
 *     kernels/aria/aria-x86_64-avx512-gfni.S && /tmp/ratio [TRIALS]
 * Columns: /ARIA128 = time over ARIA-128 ternlog's in the same mode, /ARIAsame = over ARIA with
 * the same key size.
 * A second table gives the same ratios for the slope, as `asmdiff bench` measures it (its
 * bench-slope method: sizes 1..16 KiB in 1 KiB steps, a least-squares line through each size's
 * fastest time, the intercept taking the per-call cost): every variant and size in turn, 4 calls
 * each, TRIALS / 4 times.  The 16 KiB table counts each call's fixed cost (key tables, the
 * pipeline's fill and drain, zeroing the frame), the slope does not. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "reference/camellia.h"
#include "reference/aria.h"
#include "kernels/camellia/camellia.h"
#include "kernels/aria/aria.h"
typedef void ecbf(const void *, unsigned, uint8_t *, const uint8_t *, size_t);
typedef void ctrf(const void *, unsigned, uint8_t *, const uint8_t *, size_t, uint8_t *);
struct v { const char *name; int kl; int mode; void *fn; const void *key; unsigned rounds; double best;
            double at_kib[17], slope, intercept; };
static double now(void){struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec*1e9+t.tv_nsec;}
#define NB 1024
static uint8_t in[16*NB], out[16*NB];
int main(int argc, char **argv){
  int trials = argc > 1 ? atoi(argv[1]) : 300;
  if (trials < 1) { fprintf(stderr, "usage: %s [TRIALS >= 1]\n", argv[0]); return 2; }
  uint8_t key[32]; for (int i=0;i<32;i++) key[i]=(uint8_t)(i*37+11);
  static struct camellia_key ce[3], cd[3]; static struct aria_key ae[3], ad[3];
  int kls[3]={16,24,32};
  for(int i=0;i<3;i++){camellia_set_encrypt_key(&ce[i],key,kls[i]);camellia_set_decrypt_key(&cd[i],key,kls[i]);aria_set_encrypt_key(&ae[i],key,kls[i]);aria_set_decrypt_key(&ad[i],key,kls[i]);}
  struct v vs[64]; int n=0;
  const char *cn[3]={"cmpmask","gfnishift","field"};
  void *ce_f[3]={camellia_ecb_avx512_gfni_cmpmask,camellia_ecb_avx512_gfni_gfnishift,camellia_ecb_avx512_gfni_field};
  void *cc_f[3]={camellia_ctr_avx512_gfni_cmpmask,camellia_ctr_avx512_gfni_gfnishift,camellia_ctr_avx512_gfni_field};
  for(int k=0;k<3;k++){
    for(int m=0;m<3;m++){
      vs[n++]=(struct v){"aria-ternlog",kls[k],m,m==2?(void*)aria_ctr_avx512_gfni_ternlog:(void*)aria_ecb_avx512_gfni_ternlog,m==1?(void*)ad[k].rk:(void*)ae[k].rk,(unsigned)ae[k].rounds,1e30,{0},0,0};
      for(int f=0;f<3;f++)
        vs[n++]=(struct v){cn[f],kls[k],m,m==2?cc_f[f]:ce_f[f],m==1?(void*)cd[k].sk:(void*)ce[k].sk,ce[k].rounds,1e30,{0},0,0};
    }
  }
  uint8_t ctr[16]={0};
  for(int t=0;t<trials;t++) for(int i=0;i<n;i++){
    double t0=now();
    for(int r=0;r<8;r++){ if(vs[i].mode==2) ((ctrf*)vs[i].fn)(vs[i].key,vs[i].rounds,out,in,NB,ctr); else ((ecbf*)vs[i].fn)(vs[i].key,vs[i].rounds,out,in,NB);}
    double d=(now()-t0)/(8.0*16*NB); if(d<vs[i].best) vs[i].best=d;
  }
  /* the slope: every variant at 1..16 KiB in turn, fastest of each size, least squares */
  for(int i=0;i<n;i++) for(int k=1;k<=16;k++) vs[i].at_kib[k]=1e30;
  for(int t=0;t<(trials+3)/4;t++) for(int k=1;k<=16;k++) for(int i=0;i<n;i++){
    size_t blocks=64*(size_t)k; double t0=now();
    for(int r=0;r<4;r++){ if(vs[i].mode==2) ((ctrf*)vs[i].fn)(vs[i].key,vs[i].rounds,out,in,blocks,ctr); else ((ecbf*)vs[i].fn)(vs[i].key,vs[i].rounds,out,in,blocks);}
    double d=(now()-t0)/4; if(d<vs[i].at_kib[k]) vs[i].at_kib[k]=d;
  }
  for(int i=0;i<n;i++){ double sx=0,sy=0,sxx=0,sxy=0;
    for(int k=1;k<=16;k++){ double x=1024.0*k, y=vs[i].at_kib[k]; sx+=x; sy+=y; sxx+=x*x; sxy+=x*y; }
    vs[i].slope=(16*sxy-sx*sy)/(16*sxx-sx*sx); vs[i].intercept=(sy-vs[i].slope*sx)/16; }
  /* clock: a dependent chain of adds, 1 cycle each; many short runs (about half a millisecond),
   * the fastest kept, so that one of them escapes the time slicing of a shared machine */
  double best_ghz=0; for(int r=0;r<400;r++){ unsigned long x=0; double t0=now();
    for(long i=0;i<2000000;i++) __asm__ volatile("add $1, %0" : "+r"(x));
    double g=2000000.0/(now()-t0); if(g>best_ghz) best_ghz=g; }
  const char *mn[3]={"ECB enc","ECB dec","CTR"};
  printf("clock estimate %.2f GHz (dependent add chain); 16 KiB, %d alternating trials of 8 calls, fastest kept\n", best_ghz, trials);
  printf("%-14s %-4s %-8s %8s %7s %8s %8s\n","impl","key","mode","ns/B","c/B","/ARIA128","/ARIAsame");
  for(int m=0;m<3;m++) for(int k=0;k<3;k++) for(int i=0;i<n;i++) if(vs[i].mode==m&&vs[i].kl==kls[k]){
    double a128=0, asame=0; for(int j=0;j<n;j++) if(!strcmp(vs[j].name,"aria-ternlog")&&vs[j].mode==m){ if(vs[j].kl==16)a128=vs[j].best; if(vs[j].kl==vs[i].kl) asame=vs[j].best; }
    printf("%-14s %-4d %-8s %8.4f %7.3f %8.3f %8.3f\n",vs[i].name,vs[i].kl*8,mn[m],vs[i].best,vs[i].best*best_ghz,vs[i].best/a128,vs[i].best/asame);
  }
  printf("\nslope over 1..16 KiB (the bench's method), %d alternating sweeps of 4 calls per size, fastest kept\n", (trials+3)/4);
  printf("%-14s %-4s %-8s %8s %7s %9s %8s %8s\n","impl","key","mode","ns/B","c/B","call ns","/ARIA128","/ARIAsame");
  for(int m=0;m<3;m++) for(int k=0;k<3;k++) for(int i=0;i<n;i++) if(vs[i].mode==m&&vs[i].kl==kls[k]){
    double a128=0, asame=0; for(int j=0;j<n;j++) if(!strcmp(vs[j].name,"aria-ternlog")&&vs[j].mode==m){ if(vs[j].kl==16)a128=vs[j].slope; if(vs[j].kl==vs[i].kl) asame=vs[j].slope; }
    printf("%-14s %-4d %-8s %8.4f %7.3f %9.0f %8.3f %8.3f\n",vs[i].name,vs[i].kl*8,mn[m],vs[i].slope,vs[i].slope*best_ghz,vs[i].intercept,vs[i].slope/a128,vs[i].slope/asame);
  }
}
