/**
 * Materials for retrieval tests and `bench:retrieval`: a Korean trade handbook (the domain of seed 001, with its
 * document types: definitions, a procedure, common mistakes, a document checklist, negotiation, country guidelines,
 * cases) and an English workplace-safety handbook, written as paragraphs and wrapped into PDF lines the way a
 * real export wraps them. Every chapter is an outline entry with a large heading. The labelled queries of the recall
 * evaluation live in `retrieval-queries.ts`.
 */
import { mulberry32 } from '../src/math/index.js';
import { buildPdf, type FixturePage, type OutlineEntry } from './pdf-fixtures.js';

export interface FixtureChapter {
  title: string;
  /** One entry per page; each page is a list of paragraphs. */
  pages: string[][];
}

export interface FixtureMaterial {
  title: string;
  korean: boolean;
  chapters: FixtureChapter[];
}

/** Cuts a paragraph into lines of at most `width` characters at spaces (a PDF line as the page width makes it). */
export function wrap(paragraph: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/\s+/u).filter(Boolean)) {
    if (line.length > 0 && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line.length > 0 ? `${line} ${word}` : word;
    }
  }
  if (line.length > 0) lines.push(line);
  return lines;
}

export const TRADE_HANDBOOK: FixtureMaterial = {
  title: '무역 실무 입문',
  korean: true,
  chapters: [
    {
      title: '1. 무역 거래 조건의 기초',
      pages: [
        [
          '인코텀즈(Incoterms)란 국제상업회의소(ICC)가 정한 무역 거래 조건으로, 매도인과 매수인이 물품의 인도 장소와 비용, 위험을 어디까지 부담하는지를 정한 국제 규칙입니다. 현재 널리 쓰는 판은 인코텀즈 2020이며 모두 11가지 조건이 있습니다.',
          '공장인도조건(EXW, Ex Works)은 매도인이 자기 공장이나 창고에서 물품을 매수인에게 넘기면 의무가 끝나는 조건입니다. 수출 통관과 운송, 보험은 모두 매수인이 맡으므로 매도인의 부담이 가장 적습니다.',
          '인코텀즈는 소유권이 언제 넘어가는지나 대금을 언제 치르는지는 정하지 않습니다. 이런 내용은 매매 계약서에 따로 적어야 합니다. 인코텀즈가 정하는 것은 인도 장소, 위험이 넘어가는 시점, 운송과 통관과 보험 같은 비용을 누가 내는지입니다.',
        ],
        [
          '본선인도조건(FOB, Free On Board)은 매도인이 지정된 선적항에서 매수인이 지정한 본선에 물품을 적재하면 인도가 끝나는 조건입니다. 물품이 본선에 적재되는 순간 위험이 매수인에게 넘어갑니다.',
          'FOB 조건에서 해상 운임과 적하 보험료는 매수인, 즉 수입자가 부담합니다. 매도인은 수출 통관과 선적항까지의 내륙 운송, 본선 적재 비용까지만 책임집니다.',
          'FOB는 바다나 내륙 수로로 운송하는 화물에만 쓰는 조건입니다. 항공 화물이나 트럭 화물에는 FCA나 CPT 같은 모든 운송 방식용 조건을 씁니다. 선적항의 이름은 FOB 뒤에 적는데, 예를 들어 부산항에서 선적한다면 FOB Busan이라고 씁니다.',
        ],
        [
          '운임·보험료 포함 인도조건(CIF, Cost, Insurance and Freight)에서는 매도인이 목적항까지의 해상 운임과 최소 조건의 적하 보험료를 부담합니다. 그러나 위험은 FOB와 같이 선적항에서 본선에 적재될 때 매수인에게 넘어갑니다.',
          '관세지급인도조건(DDP, Delivered Duty Paid)은 매도인이 수입국의 지정 장소까지 물품을 가져가 수입 통관을 마치고 관세와 부가가치세까지 내는 조건입니다. 매도인의 부담이 가장 큰 조건입니다.',
          'CIF의 보험은 매수인을 위한 것이지만 최소 담보 조건이므로, 값비싼 물품이라면 매수인이 추가 보험을 요구해야 합니다. 인코텀즈 2020에서는 모든 운송 방식용 조건인 CIP의 보험 조건을 더 넓은 담보로 높였습니다.',
        ],
      ],
    },
    {
      title: '2. 수출 절차',
      pages: [
        [
          '수출은 보통 다음 단계로 진행됩니다. 먼저 매수인과 물품, 수량, 가격, 인도 조건, 결제 조건을 정해 매매 계약을 맺습니다. 결제를 신용장으로 하기로 했다면 다음으로 매수인이 자기 거래 은행에 신용장 개설을 신청합니다.',
          '신용장을 받으면 매도인은 물품을 생산하거나 확보하고 포장합니다. 그다음 관세청 전자통관시스템(UNI-PASS)으로 수출신고를 하고 수출신고필증을 받습니다. 수출신고는 물품을 선적하기 전에 마쳐야 합니다.',
          '수출신고를 할 때는 품명, 규격, 수량, HS 코드, 가격, 원산지를 적으며, 수출 물품 가운데 일부는 세관 검사를 받습니다. 전략물자에 해당하는 물품은 수출 허가를 먼저 받아야 하므로 계약 전에 해당 여부를 확인하는 것이 좋습니다.',
        ],
        [
          '수출신고가 수리되면 물품을 보세구역으로 옮겨 선박이나 항공기에 적재합니다. 선적이 끝나면 운송인에게서 선하증권(B/L)을 받습니다.',
          '마지막으로 매도인은 선하증권, 상업송장, 포장명세서, 원산지증명서 등 신용장이 요구하는 서류를 은행에 제시하고 대금을 회수합니다. 이를 네고(매입)라고 부르며, 서류가 신용장 조건과 일치해야 대금을 받을 수 있습니다.',
          '대금 회수가 끝나면 수출 실적을 관리하고, 관세 환급 대상이면 수출신고필증으로 환급을 신청합니다. 수출용 원재료를 수입할 때 낸 관세를 돌려받는 관세 환급 제도는 수출 기업의 원가를 낮추는 데 도움이 됩니다.',
        ],
      ],
    },
    {
      title: '3. 무역 서류',
      pages: [
        [
          '선하증권(B/L, Bill of Lading)은 운송인이 물품을 받았음을 증명하고 목적지에서 그 물품을 인도하겠다고 약속하는 증권입니다. 선하증권은 물품에 대한 권리를 나타내는 권리증권이므로 배서하여 양도할 수 있습니다.',
          '신용장(L/C, Letter of Credit)은 수입자의 거래 은행인 개설은행이 신용장 조건에 일치하는 서류가 제시되면 수출자에게 대금을 지급하겠다고 확약하는 문서입니다. 수출자는 대금 회수 위험을 줄이고 수입자는 서류로 선적을 확인할 수 있습니다.',
          '선하증권은 누구에게 인도할지를 정하는 방식에 따라 기명식과 지시식으로 나뉩니다. 신용장 거래에서는 은행의 지시에 따라 인도하는 지시식 선하증권을 주로 씁니다. 화물이 먼저 도착하고 선하증권이 늦게 오면 은행의 보증을 받아 화물을 먼저 찾기도 합니다.',
        ],
        [
          '상업송장(Commercial Invoice)은 매도인이 작성하는 물품의 명세서이자 대금 청구서로, 품명과 수량, 단가, 총액을 적습니다. 포장명세서(Packing List)에는 포장 개수와 순중량, 총중량, 용적을 적습니다.',
          'HS 코드는 국제통일상품분류체계에 따라 물품에 붙이는 번호로, 앞의 6자리는 세계 공통입니다. 우리나라는 여기에 4자리를 더한 10자리 HSK를 씁니다. 원산지증명서(C/O)는 물품이 어느 나라에서 생산되었는지를 증명하며, FTA 특혜관세를 받으려면 반드시 필요합니다.',
          '해상 운송에서 화주가 화물을 컨테이너 하나에 가득 채우면 FCL, 다른 화주의 화물과 함께 싣으면 LCL이라고 합니다. LCL 화물은 포워더의 창고에서 다른 화물과 함께 컨테이너에 적입되므로 포장을 더 튼튼히 해야 합니다.',
        ],
      ],
    },
    {
      title: '4. 신입사원이 자주 하는 실수',
      pages: [
        [
          '가장 흔한 실수는 계약서에 인코텀즈의 판을 적지 않는 것입니다. "FOB Busan"만 적으면 어느 판의 규칙을 따르는지 다툼이 생길 수 있으므로 "FOB Busan Incoterms 2020"처럼 판까지 적어야 합니다.',
          '컨테이너 화물에 습관적으로 FOB를 쓰는 것도 주의해야 합니다. 컨테이너는 본선이 아니라 터미널에서 운송인에게 넘기므로, 위험이 넘어가는 시점이 실제 인도와 맞지 않습니다. 이럴 때는 운송인인도조건(FCA)이 적합합니다.',
        ],
        [
          '신용장 거래에서는 서류 불일치(discrepancy)가 흔한 오류입니다. 상업송장의 품명이 신용장에 적힌 품명과 한 글자라도 다르거나, 선하증권의 수하인이 잘못 적히면 은행이 대금 지급을 거절할 수 있습니다.',
          'HS 코드를 잘못 분류하는 것도 조심해야 할 실수입니다. 잘못된 코드로 신고하면 세율이 달라져 나중에 관세를 추징당하거나 가산세를 낼 수 있으므로, 애매하면 관세청의 품목분류 사전심사를 받는 것이 안전합니다.',
          '환율 변동을 생각하지 않고 장기 계약의 가격을 원화로만 계산하는 것도 자주 보는 실수입니다. 결제가 몇 달 뒤에 이루어지면 그사이 환율이 움직여 이익이 사라질 수 있으므로 환율 변동 위험을 미리 관리해야 합니다.',
        ],
      ],
    },
    {
      title: '5. 선적 서류 점검 체크리스트',
      pages: [
        [
          '선적 서류를 은행에 내기 전에 다음 항목을 하나씩 점검합니다.',
          '□ 상업송장: 품명, 수량, 단가, 총액이 신용장과 정확히 일치하는지 확인할 것. 매수인의 이름과 주소도 신용장과 같아야 합니다.',
          '□ 포장명세서: 포장 개수, 순중량, 총중량이 상업송장과 선하증권의 기재와 맞는지 확인할 것.',
        ],
        [
          '□ 선하증권: 선적일이 신용장의 최종 선적일 이전인지, 선적항과 도착항이 맞는지, 수하인과 통지처가 신용장 지시대로인지 확인할 것. 화물에 이상이 있다는 문구가 없는 무사고(Clean) 선하증권이어야 합니다.',
          '□ 원산지증명서: 발급일과 발급 기관이 적정한지, 적힌 HS 코드의 앞 6자리가 상업송장과 같은지 점검할 것.',
          '□ 서류 제시 기한: 선적일로부터 21일 이내, 그리고 신용장 유효기간 안에 제시하는지 확인할 것.',
        ],
      ],
    },
    {
      title: '6. 가격 협상 전략',
      pages: [
        [
          '협상에 들어가기 전에 BATNA를 정해 두어야 합니다. BATNA(Best Alternative to a Negotiated Agreement)는 협상이 결렬될 때 택할 수 있는 최선의 대안으로, 이것이 분명할수록 불리한 조건을 거절할 힘이 생깁니다.',
          '첫 제시 가격은 협상의 기준점이 되므로 근거를 갖춘 높은 가격으로 시작하는 것이 유리합니다. 이를 앵커링 효과라고 합니다.',
          '협상 전에는 상대의 사정도 조사합니다. 상대가 다른 공급처를 얼마나 쉽게 찾을 수 있는지, 납기가 급한지, 예산이 정해져 있는지를 알면 어느 조건에서 양보를 얻어 낼 수 있을지 판단할 수 있습니다.',
        ],
        [
          '양보는 한 번에 크게 하지 말고 작게, 그리고 점점 줄여 가며 하는 것이 좋습니다. 양보 폭이 줄어들면 상대방은 더 이상 내릴 여지가 적다고 판단합니다.',
          '가격만으로 맞서지 말고 결제 조건, 납기, 주문 수량, 인도 조건 같은 다른 조건과 교환하십시오. 예컨대 단가를 내려 주는 대신 선급금 비율을 높이거나 최소 주문 수량을 늘리는 식입니다.',
          '상대방의 제안을 바로 거절하지 말고 조건부로 답하는 것도 전략입니다. 예를 들어 그 가격이라면 주문 수량을 두 배로 늘려 주셔야 합니다라고 답하면, 양보를 하면서도 대가를 얻을 수 있습니다. 협상이 끝나면 합의한 내용을 바로 문서로 정리해 서로 확인합니다.',
        ],
      ],
    },
    {
      title: '7. 국가별 수출 유의사항',
      pages: [
        [
          '미국으로 해상 수출할 때는 수입자가 ISF(Importer Security Filing, 10+2 규정)를 선적항에서 화물을 싣기 24시간 전까지 미국 세관에 제출해야 합니다. 식품이나 의약품은 미국 FDA 등록 여부도 미리 확인해야 합니다.',
          '중국에서는 전기 제품과 자동차 부품 등 많은 품목이 CCC 강제인증을 받아야 수입됩니다. 인증 없이 선적하면 통관이 보류됩니다.',
          '일본으로 식품을 수출할 때는 일본 식품위생법에 따라 수입 신고를 하고 검사를 받으며, 식품 첨가물의 기준이 우리나라와 다른 경우가 많으므로 성분을 미리 확인해야 합니다.',
        ],
        [
          '유럽연합(EU)으로 수출하는 전기 전자 제품과 기계류에는 CE 마킹을 붙여야 하며, 화학 물질이 들어간 제품은 REACH 규정에 따른 등록 의무를 확인해야 합니다.',
          '베트남으로 수출할 때 한-아세안 FTA를 쓰려면 원산지증명서 양식 AK(Form AK)를, 한-베트남 FTA를 쓰려면 양식 VK(Form VK)를 발급받습니다. 두 협정 중 세율이 낮은 쪽을 골라 쓸 수 있습니다.',
          '인도네시아와 인도 등 여러 나라는 수입 허가나 사전 등록을 요구하는 품목이 있으므로, 처음 수출하는 나라라면 코트라(KOTRA)의 해외 시장 정보나 현지 관세사를 통해 규정을 확인하는 것이 바람직합니다.',
        ],
      ],
    },
    {
      title: '8. 사례로 배우는 무역 실무',
      pages: [
        [
          'A사는 신용장에 적힌 최종 선적일을 하루 넘겨 선적했습니다. 은행은 선하증권의 선적일이 신용장 조건과 다르다는 이유로 서류 불일치를 통보하고 대금 지급을 거절했습니다. A사는 선적이 늦어질 것을 안 시점에 매수인에게 신용장 조건 변경(amendment)을 요청했어야 했습니다.',
        ],
        [
          'B사는 베트남 바이어에게 물품을 보내면서 원산지증명서 발급을 미루었습니다. 바이어는 통관 때 FTA 특혜관세를 받지 못하고 일반 관세를 먼저 냈고, B사가 원산지증명서를 사후 발급해 준 뒤에야 관세를 환급받았습니다. 이 일로 B사는 바이어의 신뢰를 잃었습니다.',
        ],
      ],
    },

    {
      title: '9. 대금 결제 방식',
      pages: [
        [
          '무역 대금을 치르는 방식은 크게 송금 방식, 추심 방식, 신용장 방식으로 나뉩니다. 송금 방식은 수입자가 은행을 통해 수출자의 계좌로 돈을 보내는 방식으로, 절차가 간단하고 수수료가 싸지만 은행의 지급 보증이 없습니다.',
          '송금 방식 가운데 물품을 보내기 전에 대금을 먼저 받는 것을 사전 송금이라 하고, 물품을 받은 뒤에 대금을 보내는 것을 사후 송금이라고 합니다. 사전 송금은 수출자에게, 사후 송금은 수입자에게 유리합니다.',
          '추심 방식은 수출자가 선적 서류를 은행을 통해 수입자에게 보내고 대금을 받아 달라고 의뢰하는 방식입니다. 은행은 심부름만 할 뿐 지급을 보증하지 않습니다.',
        ],
        [
          '추심 방식에는 지급인도조건(D/P)과 인수인도조건(D/A)이 있습니다. D/P는 수입자가 대금을 지급해야 서류를 내어 주고, D/A는 수입자가 환어음을 인수하겠다고 서명만 하면 서류를 내어 주고 대금은 만기에 받습니다.',
          'D/A는 수입자가 물품을 먼저 찾아가므로 수출자의 대금 회수 위험이 D/P보다 큽니다. 처음 거래하는 상대라면 신용장이나 사전 송금을 쓰고, 신뢰가 쌓인 뒤에 추심이나 사후 송금으로 바꾸는 것이 일반적입니다.',
          '수출자가 대금 회수 위험을 줄이는 또 다른 방법으로 한국무역보험공사의 단기수출보험이 있습니다. 수입자가 파산하거나 대금을 지급하지 않을 때 손실의 일부를 보상받을 수 있습니다.',
        ],
      ],
    },
    {
      title: '10. 운송과 적하 보험',
      pages: [
        [
          '포워더(국제물류주선업자)는 화주를 대신해 선박이나 항공기의 공간을 예약하고, 내륙 운송과 통관, 보관을 조정해 주는 업체입니다. 선사는 배를 운항하는 회사이고, 포워더는 여러 선사의 운임을 비교해 화주에게 알맞은 운송 방법을 찾아 줍니다.',
          '해상 운임은 기본 운임에 유류할증료(BAF), 통화할증료(CAF), 터미널 화물 처리비(THC) 같은 부대 비용이 더해져 정해집니다. 견적을 비교할 때는 기본 운임만이 아니라 부대 비용까지 모두 포함한 총액을 비교해야 합니다.',
        ],
        [
          '적하 보험은 운송 중 물품이 입는 손해를 보상하는 보험입니다. 협회적하약관 ICC(A)는 면책 위험을 뺀 모든 위험을 담보하는 가장 넓은 조건이고, ICC(B)와 ICC(C)는 열거된 위험만 담보하며 ICC(C)의 담보 범위가 가장 좁습니다.',
          '보험 금액은 보통 CIF 가격의 110%로 정합니다. 10%는 수입자가 기대한 이익을 보전하기 위한 것입니다. 보험 증권은 신용장이 요구하는 경우 다른 선적 서류와 함께 은행에 제시합니다.',
          '화물이 도착했을 때 손상을 발견하면 즉시 운송인에게 서면으로 통지하고, 검정인(서베이어)의 검사를 받아 손해의 원인과 규모를 기록해 두어야 보험금을 청구할 수 있습니다.',
        ],
      ],
    },
    {
      title: '11. 수입 통관과 관세',
      pages: [
        [
          '수입 통관은 물품이 보세구역에 들어온 뒤 수입자가 세관에 수입신고를 하면서 시작됩니다. 세관은 신고 내용을 심사하고 필요하면 물품을 검사한 뒤 관세와 부가가치세를 내면 신고를 수리합니다.',
          '관세는 과세 가격에 세율을 곱해 계산합니다. 우리나라의 과세 가격은 CIF 가격, 즉 물품 가격에 목적항까지의 운임과 보험료를 더한 금액이 기준입니다. 따라서 FOB로 계약했더라도 운임과 보험료를 더해 과세 가격을 계산합니다.',
        ],
        [
          '자유무역협정(FTA)을 맺은 나라에서 생산된 물품은 원산지증명서를 갖추면 협정 세율, 즉 특혜관세를 적용받습니다. 원산지 결정 기준은 협정과 품목마다 다르므로 세번 변경 기준이나 부가가치 기준을 확인해야 합니다.',
          '보세구역은 관세를 내지 않은 상태로 외국 물품을 보관할 수 있는 장소입니다. 보세창고에 물품을 두고 필요한 만큼만 수입신고를 하면 관세 납부를 미룰 수 있어 자금 부담을 줄일 수 있습니다.',
          '수입한 원재료로 만든 물품을 수출하면 수입할 때 낸 관세를 돌려받는데, 이를 관세 환급이라고 합니다. 환급은 수출신고 수리일로부터 2년 안에 신청해야 합니다.',
        ],
      ],
    },
    {
      title: '12. 클레임과 분쟁 해결',
      pages: [
        [
          '무역 클레임은 계약 당사자 한쪽이 계약을 제대로 이행하지 않아 상대방이 손해 배상을 청구하는 것입니다. 품질 불량, 수량 부족, 선적 지연, 포장 불량이 대표적인 원인입니다.',
          '클레임을 받으면 먼저 사실관계를 확인하고 증거 자료를 모읍니다. 검사 보고서, 사진, 선하증권의 비고란, 주고받은 이메일이 중요한 증거가 됩니다. 감정적으로 대응하지 말고 계약서의 클레임 조항에 정한 기한과 절차를 지켜야 합니다.',
        ],
        [
          '분쟁은 당사자끼리의 화해로 해결하는 것이 가장 빠르고 비용이 적게 듭니다. 화해가 어려우면 제3자가 중재안을 제시하는 조정을, 그래도 안 되면 중재나 소송을 택합니다.',
          '중재는 당사자가 합의해 고른 중재인의 판정에 따르는 방식으로, 판정은 법원 판결과 같은 효력이 있고 뉴욕협약에 가입한 나라에서 집행할 수 있습니다. 우리나라에서는 대한상사중재원이 중재를 맡습니다. 계약서에 중재 조항을 미리 넣어 두어야 중재로 해결할 수 있습니다.',
        ],
      ],
    },
    {
      title: '13. 환율 위험 관리',
      pages: [
        [
          '수출 대금을 달러로 받기로 했는데 대금을 받을 때 원화 가치가 올라 있으면, 같은 달러를 받아도 원화로 바꾼 금액이 줄어듭니다. 이처럼 환율 변동 때문에 생기는 손실 가능성을 환율 위험이라고 합니다.',
          '선물환 거래는 미래의 정해진 날에 정해진 환율로 외화를 사고팔기로 오늘 은행과 약정하는 것입니다. 수출자가 석 달 뒤 받을 달러를 지금 선물환으로 팔아 두면 그사이 환율이 떨어져도 약정한 환율로 원화를 받습니다.',
        ],
        [
          '환율 위험을 줄이는 다른 방법으로는 수출과 수입을 같은 통화로 맞추는 방법, 대금을 원화로 계약하는 방법, 결제 시기를 앞당기거나 늦추는 리딩과 래깅이 있습니다.',
          '중소기업은 한국무역보험공사의 환변동보험을 이용할 수도 있습니다. 보험에서 정한 환율보다 환율이 내려가 손실이 나면 그 차액을 보상받고, 반대로 환율이 올라 이익이 나면 그 이익을 공사에 돌려줍니다.',
        ],
      ],
    },
  ],
};

export const SAFETY_HANDBOOK: FixtureMaterial = {
  title: 'Workplace Safety Essentials',
  korean: false,
  chapters: [
    {
      title: '1. Key Terms',
      pages: [
        [
          'A hazard is defined as anything with the potential to cause harm, such as a chemical, a moving machine part, electricity, noise or working at height. A hazard exists whether or not anyone is exposed to it.',
          'Risk refers to the combination of how likely it is that a hazard will cause harm and how severe that harm would be. The same hazard can carry a high risk in one workplace and a low risk in another, depending on exposure and controls.',
        ],
        [
          'Personal protective equipment (PPE) means equipment worn to minimise exposure to hazards, for example safety glasses, gloves, hearing protection and hard hats. PPE is the last line of defence, not the first.',
          'A near miss is an unplanned event that did not result in injury or damage but had the potential to do so. A box falling from a shelf next to a worker is a near miss. Near misses are warnings that the same event could cause an injury next time.',
        ],
      ],
    },
    {
      title: '2. Carrying Out a Risk Assessment',
      pages: [
        [
          'A risk assessment follows five steps. Step 1: identify the hazards by walking the workplace, reading manufacturer instructions and talking to the people who do the work. Step 2: decide who might be harmed and how, including visitors, contractors and night shift staff.',
          'Step 3: evaluate the risks and decide on controls, using the hierarchy of controls: elimination, substitution, engineering controls, administrative controls and finally PPE.',
        ],
        [
          'Step 4: record the significant findings, the controls chosen and the person responsible for each action, with a date by which it must be done. Step 5: review the assessment regularly, and always after an accident, a near miss or a change of equipment or process.',
        ],
      ],
    },
    {
      title: '3. Lockout and Tagout',
      pages: [
        [
          'Lockout and tagout is the procedure that keeps a machine switched off while it is serviced. First, notify everyone who works with the machine. Then shut the machine down with its normal controls and isolate every energy source: electrical, hydraulic, pneumatic and stored mechanical energy.',
          'Next, fit a personal lock and a tag to each isolation point so that nobody can restart the machine. Each worker applies their own lock. Finally, verify the isolation by trying to start the machine before any work begins.',
        ],
      ],
    },
    {
      title: '4. Common Mistakes',
      pages: [
        [
          'A common mistake when lifting is bending at the waist instead of the knees. Loads should be held close to the body, and workers should avoid twisting while carrying. Lifting a load that is too heavy alone, instead of asking for help or using a trolley, causes many back injuries.',
          'Another frequent error is using a ladder for work that needs a platform. Beware of overreaching sideways from a ladder, standing on the top step, or placing a ladder on an uneven or slippery surface.',
        ],
        [
          'Workers also wrongly assume that PPE makes a task safe. Gloves that are the wrong size, safety glasses pushed up on the forehead and hearing protection worn only part of the time give a false sense of security. Relying on PPE instead of removing the hazard is a pitfall to avoid.',
        ],
      ],
    },
    {
      title: '5. Pre-shift Forklift Inspection Checklist',
      pages: [
        [
          'Before each shift, the operator must check the forklift against this checklist and report any defect before using it.',
          '- Check that the tyres are inflated and undamaged and that the wheel nuts are tight.',
          '- Verify that the forks are straight, without cracks, and that the mast chains are lubricated.',
          '- Make sure the horn, lights, reversing alarm and seat belt work.',
          '- Check the hydraulic fluid level and look for leaks under the truck.',
          '- Verify that the brakes and the parking brake hold the truck on a slope.',
        ],
      ],
    },
    {
      title: '6. Rules in Different Countries',
      pages: [
        [
          'In the United States, the Occupational Safety and Health Administration (OSHA) sets and enforces workplace safety standards. Employers must keep a log of recordable injuries on OSHA Form 300 and report a fatality to OSHA within eight hours.',
          'In the European Union, the Framework Directive 89/391/EEC requires every employer to assess risks, to inform and train workers, and to consult them on safety. Each member state turns the directive into its own national law.',
        ],
        [
          'In the United Kingdom, the Health and Safety Executive (HSE) regulates workplaces, and employers with five or more employees must write down their risk assessment. Serious injuries and dangerous occurrences are reported under the RIDDOR regulations.',
        ],
      ],
    },
    {
      title: '7. Case Study: A Warehouse Incident',
      pages: [
        [
          'In one case study, a forklift in a busy warehouse reversed into a pedestrian walkway and struck a worker, who suffered a broken leg. The investigation found that the reversing alarm had been broken for two weeks and that the walkway had no physical barrier.',
          'The pre-shift inspections had been signed without the truck being checked. After the incident, the company installed barriers between walkways and aisles, repaired the alarm and retrained its operators.',
        ],
      ],
    },
    {
      title: '8. Good Practice',
      pages: [
        [
          'Employers should encourage workers to report every near miss without fear of blame. A short report that says what happened, where, and what could have happened helps the team remove the hazard before anyone is hurt.',
          'Keep walkways and emergency exits clear, store heavy items on low shelves, and clean up spills at once. Good housekeeping is recommended as one of the cheapest ways to prevent slips, trips and falls.',
        ],
      ],
    },
    {
      title: '9. Fire Safety',
      pages: [
        [
          'Fire needs three things to start and keep burning: heat, fuel and oxygen, often drawn as the fire triangle. Removing any one of them puts the fire out, which is how every extinguisher works: water cools, foam and carbon dioxide smother, and dry powder interrupts the chemical reaction.',
          'Use the right extinguisher for the fire. Water is for wood, paper and textiles, but must never be used on electrical equipment or burning oil. Carbon dioxide extinguishers are the choice for electrical fires, and wet chemical extinguishers are made for cooking oil fires in kitchens.',
        ],
        [
          'Every workplace needs a written evacuation plan with escape routes, assembly points and the names of fire wardens. Fire drills should be held at least once a year so that everyone knows the sound of the alarm and the way out.',
          'Fire doors must be kept closed and never wedged open, because they stop smoke from spreading along corridors and stairs. Escape routes must stay unlocked from the inside while people are in the building.',
        ],
      ],
    },
    {
      title: '10. Hazardous Chemicals',
      pages: [
        [
          'A safety data sheet (SDS) is the document a supplier must provide with a hazardous chemical. It has sixteen sections, describing among other things the hazards, first aid measures, firefighting measures, safe handling and storage, and the protective equipment required.',
          'Containers must carry labels with hazard pictograms, a signal word such as Danger or Warning, and hazard and precautionary statements. Never pour a chemical into an unlabelled container or a drinks bottle, even for a short time.',
        ],
        [
          'Store incompatible chemicals apart: acids away from bases, and oxidisers away from flammable liquids. Keep only the quantity needed for the day at the workstation, and return the rest to a ventilated, locked store.',
          'If a chemical splashes into the eyes, rinse them with clean water for at least fifteen minutes, holding the eyelids open, and then seek medical help. Bring the safety data sheet so the doctor knows what the chemical was.',
        ],
      ],
    },
    {
      title: '11. Electrical Safety',
      pages: [
        [
          'Electric shock happens when current passes through the body, and even the mains voltage of an ordinary socket can kill. Burns, fires and falls from a ladder after a shock are further consequences of electrical accidents.',
          'Inspect cables, plugs and sockets before use and take damaged equipment out of service at once. Residual current devices (RCDs) cut the power within milliseconds when current leaks to earth, and should protect portable equipment used outdoors.',
        ],
        [
          'Only qualified electricians may work on electrical installations. Work on live conductors is allowed only when it is unreasonable to switch the supply off, and then with insulated tools, suitable gloves and a second person present.',
          'Never overload a socket with adaptors, keep liquids away from electrical equipment, and do not run cables under carpets where damage cannot be seen.',
        ],
      ],
    },
    {
      title: '12. First Aid and Emergencies',
      pages: [
        [
          'Employers must provide first aid kits, a person trained in first aid, and information telling workers where they are. The number of trained first aiders depends on the size of the workforce and the hazards of the work.',
          'When someone collapses, first make sure the area is safe, then check whether the person responds and is breathing normally. If not, call the emergency number, start chest compressions at a rate of 100 to 120 per minute, and use an automated external defibrillator (AED) as soon as one arrives.',
        ],
        [
          'For a bleeding wound, press firmly on it with a clean dressing and keep the pressure on. For a burn, cool the area under cool running water for twenty minutes, remove jewellery nearby, and cover it loosely with cling film.',
          'After any emergency, record what happened and what first aid was given, and replace the items used from the first aid kit.',
        ],
      ],
    },
    {
      title: '13. Ergonomics and Noise',
      pages: [
        [
          'Ergonomics means fitting the job to the worker. For work at a computer screen, the top of the screen should be at or slightly below eye level, the forearms roughly horizontal, and the feet flat on the floor or on a footrest.',
          'Repetitive tasks cause strain injuries in the wrists, shoulders and back. Short breaks or changes of activity every hour help more than one long break, and tools with good grips reduce the force the hand needs.',
        ],
        [
          'Noise above 85 decibels averaged over a working day can damage hearing permanently. If people must shout to be heard at a distance of two metres, the noise is probably at that level and should be measured.',
          'Reduce noise at the source first, for example by maintaining machines, fitting silencers or enclosing noisy equipment, and mark hearing protection zones where the protection must be worn.',
        ],
      ],
    },
  ],
};

/** The material's pages as PDF pages: a large heading on each chapter's first page, paragraphs wrapped into lines. */
export function fixturePages(material: FixtureMaterial): { pages: FixturePage[]; outline: OutlineEntry[] } {
  const width = material.korean ? 40 : 88;
  const pages: FixturePage[] = [];
  const outline: OutlineEntry[] = [];
  for (const chapter of material.chapters) {
    outline.push({ title: chapter.title, pageIndex: pages.length });
    for (const [index, paragraphs] of chapter.pages.entries()) {
      const lines = paragraphs.flatMap((paragraph, at) => [...(at > 0 ? [''] : []), ...wrap(paragraph, width)]);
      pages.push({ ...(index === 0 ? { heading: chapter.title } : {}), lines });
    }
  }
  return { pages, outline };
}

/** The material as a PDF with an outline (one entry per chapter). */
export function fixturePdf(material: FixtureMaterial): Promise<Uint8Array> {
  const { pages, outline } = fixturePages(material);
  return buildPdf({ title: material.title, pages, outline, korean: material.korean, headingSize: 20 });
}

const TERMS = [
  '표본', '모집단', '분산', '표준편차', '중앙값', '최빈값', '상관계수', '회귀식', '확률변수', '정규분포', '신뢰구간', '가설검정',
  '유의수준', '검정통계량', '표본오차', '층화추출', '계통추출', '이상값', '사분위수', '상자그림', '히스토그램', '도수분포표',
  '조건부확률', '베이즈 정리', '이항분포', '포아송 분포', '지수분포', '중심극한정리', '최소제곱법', '결정계수', '잔차', '공분산',
  '재고 회전율', '리드타임', '안전재고', '수요 예측', '이동평균', '지수평활법', '계절지수', '추세선', '물류비', '운송 단가',
  '창고 면적', '적재율', '납기 준수율', '불량률', '관리도', '공정능력지수', '품질 비용', '표본 검사', '합격 판정', '생산 계획',
];
const PREDICATES = [
  '크게 달라지지 않습니다', '자료의 흩어짐을 보여 줍니다', '예측의 정확도를 좌우합니다', '비용을 줄이는 데 쓰입니다',
  '주기적으로 다시 계산해야 합니다', '그래프로 그려 보면 쉽게 이해됩니다', '표본의 크기에 따라 달라집니다',
  '관리자가 가장 먼저 확인하는 지표입니다', '다른 지표와 함께 해석해야 합니다', '과거 자료로부터 추정합니다',
  '현장의 판단을 돕는 근거가 됩니다', '월별로 비교하면 추세가 드러납니다', '작은 변화에도 민감하게 반응합니다',
  '기준값과 비교해 판단합니다', '보고서의 핵심 수치로 쓰입니다', '계산 방법을 정해 두어야 합니다',
];

/** A Korean sentence about statistics and operations, different at every call (same sequence for the same seed). */
function sentence(next: () => number): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const first = pick(TERMS);
  const second = pick(TERMS);
  const last = first.at(-1) ?? '';
  const batchim = /[\uac00-\ud7a3]/u.test(last) && (last.charCodeAt(0) - 0xac00) % 28 !== 0;
  const number = Math.floor(next() * 90) + 10;
  switch (Math.floor(next() * 4)) {
    case 0:
      return `${first}${batchim ? '은' : '는'} ${second}와 함께 볼 때 ${pick(PREDICATES)}.`;
    case 1:
      return `${number}개 부서의 자료를 보면 ${first}${batchim ? '이' : '가'} ${pick(PREDICATES)}.`;
    case 2:
      return `실무에서 ${first}${batchim ? '을' : '를'} 다룰 때는 ${second}의 변화도 살펴야 하며, ${first}${batchim ? '은' : '는'} ${pick(PREDICATES)}.`;
    default:
      return `${second}에 비해 ${first}${batchim ? '은' : '는'} ${pick(PREDICATES)}. 지난 ${number}주 동안의 기록이 그 예입니다.`;
  }
}

/**
 * A long Korean handbook of varied sentences (statistics and operations vocabulary, so it overlaps the labelled
 * queries' words), `pages` pages in `chapters` outlined chapters: the 300-page material of `bench:retrieval`.
 * Unlike pdf-fixtures' largePdf, no line repeats at page edges, so running-line removal keeps the text.
 */
export function handbookPdf(pages = 300, chapters = 10, seed = 7): Promise<Uint8Array> {
  // A seeded generator, so the same options give the same PDF.
  const next = mulberry32(seed);
  const fixturePages: FixturePage[] = [];
  const outline: OutlineEntry[] = [];
  const perChapter = Math.floor(pages / chapters);
  for (let page = 0; page < pages; page++) {
    const chapter = Math.min(chapters - 1, Math.floor(page / perChapter));
    const first = page === chapter * perChapter;
    const title = `${chapter + 1}장 ${TERMS[(chapter * 7) % TERMS.length]}와 현장 자료`;
    if (first) outline.push({ title, pageIndex: page });
    // About 1,400 characters a page: a full page of body text.
    const paragraphs = Array.from({ length: first ? 7 : 8 }, () => Array.from({ length: 3 }, () => sentence(next)).join(' '));
    const lines = paragraphs.flatMap((paragraph, at) => [...(at > 0 ? [''] : []), ...wrap(paragraph, 40)]);
    fixturePages.push({ ...(first ? { heading: title } : {}), lines });
  }
  return buildPdf({ pages: fixturePages, outline, korean: true, headingSize: 20 });
}
