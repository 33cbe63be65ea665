package search

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// scriptQueries are intents in Chinese, Japanese, Korean and Thai, each
// with the tool of testdata/catalogs/multilingual.jsonl described in its
// language that it asks for. They are paraphrases: a word or two in
// common with the description, never the description itself.
var scriptQueries = []struct{ lang, intent, tool string }{
	{"zh", "查询上海的天气预报", "get_weather"},
	{"zh", "给张经理发一封邮件", "send_email"},
	{"zh", "帮我找一下文件名包含报告的文件", "search_files"},
	{"zh", "帮我在日历上安排一个会议", "create_calendar_event"},
	{"zh", "把这段话翻译成英文", "translate_text"},
	{"zh", "苹果公司现在的股价是多少", "get_stock_price"},
	{"zh", "一百美元换算成人民币是多少", "convert_currency"},
	{"zh", "在仓库里提一个新问题", "create_issue"},
	{"zh", "给这个网页截个图", "take_screenshot"},
	{"zh", "预订今晚七点的餐厅座位", "book_restaurant"},
	{"ja", "大阪の天気予報を教えて", "get_weather"},
	{"ja", "部長にメールを送って", "send_email"},
	{"ja", "請求書という名前のファイルを探して", "search_files"},
	{"ja", "来週の会議をカレンダーに登録して", "create_calendar_event"},
	{"ja", "この文章を英語に翻訳してください", "translate_text"},
	{"ja", "トヨタの株価を調べて", "get_stock_price"},
	{"ja", "100ドルを円に換算して", "convert_currency"},
	{"ja", "バグのイシューを作成して", "create_issue"},
	{"ja", "このページのスクリーンショットを撮って", "take_screenshot"},
	{"ja", "今夜7時にレストランを予約して", "book_restaurant"},
	{"ko", "서울 날씨 알려줘", "get_weather"},
	{"ko", "팀장님께 이메일 보내줘", "send_email"},
	{"ko", "보고서 파일 찾아줘", "search_files"},
	{"ko", "다음 주 회의 일정 잡아줘", "create_calendar_event"},
	{"ko", "이 문장을 영어로 번역해줘", "translate_text"},
	{"ko", "삼성전자 주가 알려줘", "get_stock_price"},
	{"ko", "100달러를 원화로 환산해줘", "convert_currency"},
	{"ko", "저장소에 버그 이슈 만들어줘", "create_issue"},
	{"ko", "이 페이지 스크린샷 찍어줘", "take_screenshot"},
	{"ko", "오늘 저녁 식당 예약해줘", "book_restaurant"},
	{"th", "พยากรณ์อากาศกรุงเทพวันนี้", "get_weather"},
	{"th", "ส่งอีเมลหาหัวหน้า", "send_email"},
	{"th", "ช่วยค้นหาไฟล์รายงาน", "search_files"},
	{"th", "นัดประชุมทีมในปฏิทินพรุ่งนี้", "create_calendar_event"},
	{"th", "แปลข้อความนี้เป็นภาษาอังกฤษ", "translate_text"},
	{"th", "ราคาหุ้นวันนี้เท่าไหร่", "get_stock_price"},
	{"th", "แลกเงินดอลลาร์เป็นเงินบาท", "convert_currency"},
	{"th", "สร้าง issue ใหม่ในคลังโค้ด", "create_issue"},
	{"th", "ถ่ายภาพหน้าจอของหน้าเว็บนี้", "take_screenshot"},
	{"th", "จองร้านอาหารคืนนี้สองที่", "book_restaurant"},
}

// TestEveryScriptIsSearchable loads the tools of 21 real MCP servers and
// 40 tools described in Chinese, Japanese, Korean and Thai: every intent
// in those scripts finds the tool described in its language among the
// first three, and most first.
func TestEveryScriptIsSearchable(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a 1,011-tool catalog")
	}
	ctx := context.Background()
	st := openStore(t)
	for _, path := range []string{"../testdata/catalogs/laptop.jsonl.gz", "../testdata/catalogs/multilingual.jsonl"} {
		f, err := OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := LoadCatalog(ctx, st, f, nil); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	s := New(st, nil)
	first := 0
	for _, q := range scriptQueries {
		rs, err := s.Search(ctx, q.intent, Query{Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		want := q.lang + "-tools/" + q.tool
		rank := 0
		for i, n := range names(rs) {
			if n == want && rank == 0 {
				rank = i + 1
			}
		}
		if rank == 1 {
			first++
		}
		if rank == 0 {
			t.Errorf("Search(%q) = %v, want %s among the first three", q.intent, names(rs), want)
		}
	}
	t.Logf("%d of %d intents find their tool first", first, len(scriptQueries))
	if first*10 < len(scriptQueries)*8 {
		t.Errorf("%d of %d intents find their tool first, want at least 80%%", first, len(scriptQueries))
	}
}

// TestPiecesBounded: a pasted page in a script written without spaces
// searches a bounded number of pieces.
func TestPiecesBounded(t *testing.T) {
	var b strings.Builder
	for r := rune(0x4E00); r < 0x4E00+500; r++ { // 500 Han letters: 997 distinct pieces
		b.WriteRune(r)
	}
	page := b.String()
	if n := len(queryWords(page)); n != maxIntentPieces {
		t.Errorf("queryWords of a %d-letter page = %d words, want %d", utf8.RuneCountInString(page), n, maxIntentPieces)
	}
}
