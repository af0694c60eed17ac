"""Stored schedules in which no two players ever share a table twice.

For 9, 15 and 21 players these are Kirkman triple systems: every pair meets exactly once, in
(N - 1) / 2 rounds. For 18 players a nearly Kirkman triple system: 8 rounds, every pair at most once
(the pairs that never meet form a perfect matching). For 12 players 4 rounds, the most possible
(OEIS A107431). Search does not find these reliably at the maxima; constructions and exhaustive
search do, so they are mathematical facts computed once and kept here as data (the tests check
each round is a partition into tables of 3 and no pair meets twice):

- 9: the affine plane AG(2, 3): each direction of lines is a round;
- 12 and 15: found by a SAT solver (CaDiCaL) on the encoding "each player at one table per
  round, three players per table, each pair together in at most one round";
- 18: found by simulated annealing (below), as the SAT solver took too long;
- 21: the construction of Ray-Chaudhuri and Wilson for KTS(3q), q = 7 (Stinson's survey of Kirkman
  triple systems, construction 1.2), with 3 as the primitive element of GF(7).

Between 31 and 44 players, N mod 3 tables of 4 make whole schedules hard for the search too: the
stored 12-round schedules for those fields were found by simulated annealing (a C program, swaps
within a round at a low fixed temperature), with the tables of 4 rotated as the engine rotates
them (each round the players with the fewest turns at a table of 4, groups of 4 who have not met).

Points are the letters a-z, then A-Z, then 0-9; each round lists its tables (tables of 4 first),
separated by spaces.

With tables of 4 (`FOURS_DESIGNS`, and the affine plane computed below):

- 16: the affine plane of order 4, AG(2, 4), from the field GF(4): each direction of lines is a
  round, 5 rounds in which every pair meets exactly once;
- 20 (5 rounds) and 24 (6 rounds): found by simulated annealing (a C program, swaps within a
  round at a low fixed temperature), which found neither 6 rounds for 20 nor 7 for 24 (by
  counting alone, 20 players can have at most 6: each meets 3 new a round);
- 28: the Hermitian unital of order 3 (the 28 points of x⁴ + y⁴ + z⁴ = 0 in the projective
  plane over GF(9), and its 63 lines through 4 of them), resolved into 9 rounds by an exact-cover
  search: every pair meets exactly once. Search alone plans about 7 rounds with a few repeats.
"""

from __future__ import annotations

POINTS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

DESIGNS: dict[int, tuple[str, ...]] = {
    9: (
        "abc def ghi",
        "adg beh cfi",
        "afh bdi ceg",
        "aei bfg cdh",
    ),
    12: (
        "abc def ghi jkl",
        "aik bej cdh fgl",
        "aeg bdl cij fhk",
        "ahl bfi cek dgj",
    ),
    15: (
        "abc def ghi jkl mno",
        "ahn bfi cgk dlo ejm",
        "aij bhl cdm ego fkn",
        "akm ben cio dhj fgl",
        "afo bdk ceh gjn ilm",
        "ael bgm cfj din hko",
        "adg bjo cln eik fhm",
    ),
    18: (
        "aim bfn cpq dgk elr hjo",
        "ach bep djq flm gno ikr",
        "anq bjl cfg dmr eko hip",
        "akl bgh cor dfp eiq jmn",
        "ado bqr cin ehm fjk glp",
        "agr bdi cej foq hln kmp",
        "aef bmo cdl gij hkq npr",
        "ajp bck den fhr gmq ilo",
    ),
    21: (
        "aho bce dnt fku gmr ijl pqs",
        "ans bip cdf ehu glo jkm qrt",
        "amp bht cjq deg fio kln rsu",
        "aef bnq ciu dkr gjp hlm ost",
        "akq bfg chr djo els imn ptu",
        "acg blr dis ekp fmt hjn oqu",
        "abd cms ejt flq gnu hik opr",
        "air bjs ckt dlu emo fnp ghq",
        "aju bko clp dmq enr fhs git",
        "alt bmu cno dhp eiq fjr gks",
    ),
    # 12 rounds with tables of 4 for fields a local search in pure Python does not solve reliably
    # in a second or two (the tables of 4, whose 6 pairs must all be new, make them hard):
    31: (
        "bfwE nov agz hpu rAB ety dmD kqC csx ijl",
        "jnps hqz dyA clv iwD emE atB boC grx fku",
        "diru afs blp mxB nqE gky tvC coD wzA ehj",
        "kvAD flq cpB dtx aew bjz osy guE imC hnr",
        "ahlC fox qyD gsA dpE uwB cek jrv bmn itz",
        "cgmt fzB dko nwC pqv ary juD elA bis hxE",
        "eoqB adn bgv fCD ktE crw hms luz jxA ipy",
        "nxyz cfi mqA lsB ajk btu dhv rDE epC gow",
        "lort kpx jwy svE def nBD czC giq bhA amu",
        "aiAE fgp cnu dsC lxD qtw hyB bkr evz jmo",
        "bcdq mrz yCE apD vwx gjB ftA esu hio kln",
        "fmvy dlw opz qrs htD ikB uAC cjE egn abx",
    ),
    32: (
        "bopD vyAF cjB dms aer quC fkx hnz ilt gwE",
        "gikn acwz rxB qty bfF hvC jmD los dpA euE",
        "hqsE lmuB xAD nry kvw bci deF afC jot gpz",
        "dfrt ejxC chy alp uvz kqA bsw goF nBD imE",
        "cklC gjrA ahB fuD mwF etz nsx doE bqv ipy",
        "hiDF dnuw aAE rsz lqx ptC eyB gmv bjk cfo",
        "btxE epsv wyD dkB ouA ajn izC lrF cgq fhm",
        "amoy fqzB iru ceD bgC dvx jpE htw lnA ksF",
        "efgl cntv wAB bhu ais jzF kDE mpx oqr dyC",
        "bmzA hkpr dij atF eqw noC cux lvD fyE gsB",
        "adqD jsuy kmt rwC lzE ovB cpF fiA ghx ben",
        "BCEF iowx fjv bdl kyz npq cmr stD agu ehA",
    ),
    34: (
        "hprt exH kvG aoq fjB bCE dnu cis gwF lmA yzD",
        "jklo etD dxz vBF amG hqs bcg fpA inC uEH rwy",
        "cfmD jtz adB qwE ipu beG yFH lsC ghn ovA krx",
        "egiy lpv fxE mqF dwH ruG kzB ost acC bhA jnD",
        "bnqB xCD gvE crz oGH ail def kAF mtw hju psy",
        "vzCH jmx sDG erE afn biF hwB glq cuA dop kty",
        "dsEF cjv mno blr gtB ehk apD fuz wCG xyA iqH",
        "auwx fkC lzF ijr gpG ADH cdq ntE emB bsv hoy",
        "qtAG mvy lBE aez kns iox jpH bfw drD guC chF",
        "ckpw djC arv quy eln iAB hEG bmz fsH txF goD",
        "gszA dit ayE epq jFG nvx for bku cBH lwD hmC",
        "fhiv pxB nzG ajA bdy qrC ouF esw clt kDE gmH",
    ),
    35: (
        "besI gnCH mzE cvG akB hiA lpD djt fyF orx quw",
        "mrtF cluy vDE jno qBG isC apH egz bkx dwA fhI",
        "fipx dkDG cFH eqy jmI anw vzC lsA hrB gtu boE",
        "ahjE oqvA fnD dgr cmC ksF ptG biy wzI lBH eux",
        "uzBF fwCE dev yHI hlo cik gjp rsD mnG axA bqt",
        "jyzG bpAB dsH auv hqF eoD krC ctI nxE fgl imw",
        "txDH gmqs bhu enr aiz dCF yBE lGI jvw cfA kop",
        "eklw acdo bfm ghD pFI xyC nvB jrA iuG qzH stE",
        "irvI hnsy cqx jlC eEG ktA owF abg fuH mBD dpz",
        "eijH alqr gBI duE twy cnp kmv ACD bFG hxz fos",
        "gAEF knuI svx frz moy aet cjB bdl wGH iqD hpC",
        "bczD otBC qEI lxF gky hvH din prw emA jsu afG",
    ),
    37: (
        "dglw nFK joC psA eht vzH iyB akD cqE fxG mru bIJ",
        "pzBG kuy eAK bnC crx hDI lvE dis afo FHJ gjt mqw",
        "ijmx ABE fsJ dqD blt oGH hrv gpu nwz aeF kCI cyK",
        "hACJ bcG fgi tzF oBD alp qux drK kns jyE evw mHI",
        "bqvK ipC emD fhH twG dkz ags ryF oEI juJ nxA clB",
        "cesH fpr vxF gCG abB jwI dnE ilD hmz qty kJK ouA",
        "uDEF sIK dxB hjG ptH iqJ lmA fzC bek gvy cno arw",
        "kort cmF hln iwE ADG bdy gBI fjK suz aqH exC pvJ",
        "anyI iGK jlH uvB sxD mtC bzE egr hpq kwF cfA doJ",
        "fkmE yAH rsB wxJ iFI cpD nvG loz adC ejq bgh tuK",
        "qrAI dhF aiv kpx bfD cjz uCH ntB owK eEG lsy gmJ",
        "gzDK qFG flu eoy aEJ nrH cvC hwB djp bms txI ikA",
    ),
    38: (
        "ghGJ acdr inK ksE fvI DHL ptx mwy jlq uzF beo ABC",
        "jmoz uADK elr vJL dkB atC hsI cyE gix bqF fwH npG",
        "iswF fqCL bdn jGI puy kmJ hEK rxH vzD cot glA aeB",
        "ltBE envH mrA fhp oFJ gkD awz ijL quI dxC bcK syG",
        "bxyI akpF hlz msB CDG ioE ceL fgK nqw ruv jtA dHJ",
        "brBG pwKL qvE gjy chH kCI aDJ ftz mxF nsA dlo eiu",
        "eqyz hkxA HIK clu dwG imp jCJ grE vBF osL btD afn",
        "ilDI cgsv pqJ dzK hny aAL bku oGH rCF emt jwB fxE",
        "dfju mCEH knL rsK bgw eDF hqt lvx iAJ pBI czG aoy",
        "ntuJ hoBD lGL iyC kqH dEF cfA abm egp rwI sxz jvK",
        "bjpE dtIL cmq goC wxD kvy nzB lJK hir AFG efs auH",
        "fikG oqxK ewE stH dvA lnF muL yBJ cjD prz agI bhC",
    ),
    40: (
        "oDFI ftA dqr lzL eiC cvM jwG kxN suJ apK myE bgn hBH",
        "fgKL ilw dtB bqC hjs amr pvF ouG yzA eEM kHI cnN xDJ",
        "ckqJ swz xyK buH mpt oBE ejr GMN lAF aDL dnI fiv ghC",
        "bdhl cew fkm iBK ruF oqy CDM jIJ avG nxz pAE sLN gtH",
        "jmzM bep glG wCK fBJ kot vxI irs uyL adA hnq cDE FHN",
        "rwAH fsy htG dox uzE anJ egN jkC clK vBD imI bFM pqL",
        "esxB iDH zGK dgk jtF EJN nCL lmv awy hoA bcr qIM fpu",
        "aiuN gAD yJM BCI qst cdj pzH moK knv lrx eFL bfG hwE",
        "tvCE nsK lpB AIN cGH emu bzJ dwF hxM gor kyD ijL afq",
        "npyG kwM hrN uvA azF dfD jlq CHJ mBL etK gEI cos bix",
        "eflH tLM asC nwD AJK ovz gBF prI dmN qux chi bjy kEG",
        "ctuI qvw fjN kps abB ACG mxH dJL ezD lno rEK giM hyF",
    ),
    41: (
        "aipO dfst bhN mCL knD lEH cgr oBI uyG eKM xFJ qwA jvz",
        "bcIJ owyF lzD ehE kmG iqK jnL fBO vxA tuC gpH rsM adN",
        "muxz ejkH aBJ sAE ghn ryD CFG bio fKN dLO wIM pqv clt",
        "CDMN hrAG EFO loL cqy ikx pzJ ags duB vwH mIK bfj ent",
        "lnBK gqEL awD mFM frH cdx jCI euA iJN bzG opt svO hky",
        "ckvM hpsK dgA fox eiB FLN bwE qtz mnr lyC ajG uJO DHI",
        "bmAB nwCJ ceG fqF ahL jos gkz yMO prx dvD tHK lIN iuE",
        "itvF elxO krN bsu azI cfw ALM pCE DGJ dnH moq hjB gyK",
        "drEI goGN sHL bvy hxM cDO ewz qBC mtJ ijl afk npu AFK",
        "jquD fyzL dkl aeC htO ovE gmw cnA xBN isG bHM rJK pFI",
        "acuH emvN ozA lsw nGO jyJ dhq pBM gDF kEK brL txI fiC",
        "tBGL ablq jAN fmD eor gJM hvC nxE kIO izH csF dpy uwK",
    ),
    43: (
        "axBM puE kwG coJ nFN rHO dsQ jzA bly iqK eDL gCP ftv hmI",
        "mzGL kqx lEP iBD eOQ pwy cdM ovC afH jFJ bIK stN nuA ghr",
        "eluF gjE sAJ kot brD wzI nHK hxP pGQ fMN qBL diy cmv aCO",
        "kpDH cry BCJ nsE fFL ejx hqM wAK dgN alz bio mtQ vOP uGI",
        "dCEK ALQ cqz bfk erJ opP jyO vwB muM ltH xGN gsD ahn iFI",
        "chit bzE GJK lmr aqu BIN xyH fjs ACF kvL ego MPQ dpO nwD",
        "fgyJ xzF AEG dhv npq DNO akI etB cjl uCQ iHL mwP orK bsM",
        "qrwQ hlK kzP DIJ bde aoy jvM txO cFG nCL fBE gpA msH iuN",
        "bjnP cEO sxL mAB duD eyK zHM lqJ aiv krN fpI how tCG gFQ",
        "osIO jLN fDK dqP buv mpC ikM hyA acw lnG rtF gzB xJQ eEH",
        "evAN abF qsy imJ hpz gtK uwL cBP foQ rxE klC dHI jDG nMO",
        "dmnx izC loN kFK yIQ gLM bcA twJ efP huO svG aDE prB jqH",
    ),
    44: (
        "dnJR krBC eGO gsQ lxP acj mHM uzK ipD tEI fFL byN oqv hwA",
        "cvIM qADK bjn dwH lyE hrJ uxG foB imO pLN kst aPR eFQ gzC",
        "tuNO ehoE cdL nCQ rwx fyA qGH mDR aJK klp bzF giI jvP sBM",
        "mxyQ gjFH erI kAJ qLM fnu EKP bhD dlz cBG ivC pOR asN otw",
        "ilsL apwz juQ dkK mGI cJN EMR oxD nyB bgq rtP efv AHO hCF",
        "bfGP eqyz puF lwK oAI int axC jBJ HLR hkm DMN dgO vEQ crs",
        "uDEJ clFO fiq gnx dtB jwL oyK pGM mrz aek hHQ bvR ANP sCI",
        "dmoC nvHK cxA rFR lqI uwy eDL aBQ ikG jpt hOP fsz gEN bJM",
        "htxL afgM zBO bdr eiw lDQ kuv mAE yHP nFI jGK qCN psJ coR",
        "ijrN bpAB sxF etR ouH hyI vzL lCM dDP fwQ knO aqE cmK gGJ",
        "swGR kIPQ hlN fjO ryL bex gvA adu npE cCH BFK tzD ioM mqJ",
        "bcwE quBP deA kNR izQ lvJ xMO grD tyF pHI jms hnG fCK aoL",
    ),
}


FOURS_DESIGNS: dict[int, tuple[str, ...]] = {
    20: (
        "acei blnr dfmt gkqs hjop",
        "amps bfhq cglo dikr ejnt",
        "agrt bijs cfkp dnoq ehlm",
        "adjl bkmo chst epqr fgin",
        "ahkn bdgp cjmr efos ilqt",
    ),
    24: (
        "aepq bhnr cdim flos gjkv tuwx",
        "abcl dght eiju fkrw mqsv nopx",
        "afmt bisx chku djnq eovw glpr",
        "agin bfuv cert dpsw hjmo klqx",
        "advx begm cfjp hilw knst oqru",
        "ajrs bdko cgqw efhx iptv lmnu",
    ),
    28: (
        "abcd efgh ijkl mnop qrst uvAB wxyz",
        "aejp bhqy cmux dktB forv glwA insz",
        "agry bkvz cotA deln fjsu hpxB imqw",
        "alsB bnuw cerz dhio fkxA gpqv jmty",
        "aftw birB cgkn dpuy emsv hjzA loqx",
        "ahkm bpsA clvy dfqz eowB gitu jnrx",
        "aivx bgjo chsw dmrA ekqu fnyB lptz",
        "aouz bflm cjqB dgsx eiyA hntv kprw",
        "anqA betx cfip djvw gmzB hlru kosy",
    ),
}


def gf4_product(first: int, second: int) -> int:
    """The product in GF(4) = GF(2)[w] / (w² + w + 1), an element a + b·w written as the bits
    ab (0, 1, 2 = w, 3 = w + 1); the sum is the exclusive or."""
    product = 0
    for bit in range(2):
        if second >> bit & 1:
            product ^= first << bit
    return product ^ 0b111 if product & 0b100 else product  # w² = w + 1


def affine_plane_of_order_4() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """AG(2, 4): the 16 points (x, y) of GF(4)², numbered 4x + y, and its 20 lines, in 5
    parallel classes: for each slope m the lines y = m·x + b, then the lines x = c. Two points lie
    on exactly one line, so its classes as rounds seat 16 players at tables of 4 without any
    repeat."""
    field = range(4)
    slopes = tuple(
        tuple(tuple(4 * x + (gf4_product(slope, x) ^ b) for x in field) for b in field)
        for slope in field
    )
    vertical = (tuple(tuple(4 * c + y for y in field) for c in field),)
    return slopes + vertical


def stored_design(
    player_count: int, table_size: int = 3
) -> tuple[tuple[tuple[int, ...], ...], ...] | None:
    """The stored schedule for `player_count` players at tables of `table_size` (rounds of
    tables of point numbers 0..N-1), or None when there is none."""
    if table_size == 4 and player_count == 16:
        return affine_plane_of_order_4()
    rounds = (FOURS_DESIGNS if table_size == 4 else DESIGNS).get(player_count)
    if rounds is None:
        return None
    return tuple(
        tuple(tuple(POINTS.index(point) for point in table) for table in r.split()) for r in rounds
    )
