/**
 * The column sets football-data.co.uk has published for its main leagues, for the sample files and
 * the benchmark set (bench/sources/football-data-set.ts). Each is a real header of its era.
 */

const RESULT = 'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,FTR,HTHG,HTAG,HTR';
const STATS = 'Referee,HS,AS,HST,AST,HF,AF,HC,AC,HY,AY,HR,AR';

/** 1995/96 to 1999/2000: results only, two-digit years. */
export const NINETIES = RESULT;

/** 2012/13 to 2018/19: BetBrain's maximum and average, no kick-off time, Pinnacle's closing 1X2 only. */
export const BETBRAIN = [
  RESULT,
  STATS,
  'B365H,B365D,B365A,BWH,BWD,BWA,IWH,IWD,IWA,LBH,LBD,LBA,PSH,PSD,PSA,WHH,WHD,WHA,VCH,VCD,VCA',
  'Bb1X2,BbMxH,BbAvH,BbMxD,BbAvD,BbMxA,BbAvA,BbOU,BbMx>2.5,BbAv>2.5,BbMx<2.5,BbAv<2.5',
  'BbAH,BbAHh,BbMxAHH,BbAvAHH,BbMxAHA,BbAvAHA,PSCH,PSCD,PSCA',
].join(',');

/** 2005/06: the books of the time, each with its own Asian handicap line (`B365AH`, `GBAH`, `LBAH`). */
export const EARLY_BETBRAIN = [
  RESULT,
  STATS,
  'B365H,B365D,B365A,BWH,BWD,BWA,GBH,GBD,GBA,IWH,IWD,IWA,LBH,LBD,LBA,SBH,SBD,SBA,WHH,WHD,WHA,SJH,SJD,SJA,VCH,VCD,VCA,BSH,BSD,BSA',
  'Bb1X2,BbMxH,BbAvH,BbMxD,BbAvD,BbMxA,BbAvA,BbOU,BbMx>2.5,BbAv>2.5,BbMx<2.5,BbAv<2.5,GB>2.5,GB<2.5,B365>2.5,B365<2.5',
  'BbAH,BbAHh,BbMxAHH,BbAvAHH,BbMxAHA,BbAvAHA,GBAHH,GBAHA,GBAH,LBAHH,LBAHA,LBAH,B365AHH,B365AHA,B365AH',
].join(',');

const closingOf = (columns: string, prefixes: string[]) =>
  columns
    .split(',')
    .map((name) => {
      const prefix = prefixes.find((p) => name.startsWith(p));
      return prefix ? `${prefix}C${name.slice(prefix.length)}` : name === 'AHh' ? 'AHCh' : name;
    })
    .join(',');

const MODERN_1X2 = 'B365H,B365D,B365A,BWH,BWD,BWA,IWH,IWD,IWA,PSH,PSD,PSA,WHH,WHD,WHA,VCH,VCD,VCA,MaxH,MaxD,MaxA,AvgH,AvgD,AvgA';
const MODERN_TOTALS = 'B365>2.5,B365<2.5,P>2.5,P<2.5,Max>2.5,Max<2.5,Avg>2.5,Avg<2.5';
const MODERN_AH = 'AHh,B365AHH,B365AHA,PAHH,PAHA,MaxAHH,MaxAHA,AvgAHH,AvgAHA';
const BOOKS_2019 = ['B365', 'BW', 'IW', 'PS', 'WH', 'VC', 'Max', 'Avg', 'P'];

/** 2019/20 to 2023/24: kick-off times, market maximum and average, closing prices of every market. */
export const MODERN = [
  RESULT.replace('Date,', 'Date,Time,'),
  STATS,
  MODERN_1X2,
  MODERN_TOTALS,
  MODERN_AH,
  closingOf(`${MODERN_1X2},${MODERN_TOTALS},${MODERN_AH}`, BOOKS_2019),
].join(',');

const NOW_1X2 = 'B365H,B365D,B365A,BWH,BWD,BWA,BFH,BFD,BFA,PSH,PSD,PSA,WHH,WHD,WHA,1XBH,1XBD,1XBA,MaxH,MaxD,MaxA,AvgH,AvgD,AvgA,BFEH,BFED,BFEA';
const NOW_TOTALS = `${MODERN_TOTALS},BFE>2.5,BFE<2.5`;
const NOW_AH = `${MODERN_AH},BFEAHH,BFEAHA`;
const BOOKS_2024 = ['B365', 'BW', 'BFE', 'BF', 'PS', 'WH', '1XB', 'Max', 'Avg', 'P'];

/** 2024/25: Betfair, Betfair Exchange and 1xBet join, Interwetten and VC Bet leave. */
export const SEASON_2024 = [
  RESULT.replace('Date,', 'Date,Time,'),
  STATS,
  NOW_1X2,
  NOW_TOTALS,
  NOW_AH,
  closingOf(`${NOW_1X2},${NOW_TOTALS},${NOW_AH}`, BOOKS_2024),
].join(',');
