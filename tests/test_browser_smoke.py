def test_browser_loads_a_data_page(browser):
    browser.get("data:text/html,<title>ok</title><p id=x>hello</p>")
    assert browser.title == "ok"
    assert browser.find_element("id", "x").text == "hello"
