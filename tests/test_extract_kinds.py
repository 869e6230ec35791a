"""Main content of pages that are not news articles (issue 11: forums, documentation,
listings, collections, products, services). Each page in tests/fixtures/pages/ was written
for this project and shows one way the main content has been lost; each test asserts that
the main text is in the Markdown and that the page's chrome is not (tools.md, web_fetch:
"content is the main content of the page as Markdown: navigation, headers, footers,
sidebars, scripts, styles, comments and anything a browser would not render are
excluded")."""

from __future__ import annotations

from tests.extract_pages import assert_reads, markdown_of


def test_a_thread_served_in_noscript_is_read_and_the_notice_is_not():
    markdown = markdown_of("forum-in-noscript.html")
    assert_reads(
        markdown,
        main=(
            "Our water is very hard, and the kettle grows a white crust",
            "Citric acid at the usual strength will not hurt a stainless element",
            "Thank you, that settles it.",
        ),
        chrome=("enable JavaScript", "Log In", "Privacy Policy", "Related topics"),
    )


def test_content_swallowed_by_a_button_left_open_is_read():
    markdown = markdown_of("button-left-open.html")
    assert_reads(
        markdown,
        main=(
            "A heat pump moves heat instead of making it.",
            "## Why it uses less energy",
            "On very cold days there is less heat in the outside air",
        ),
        chrome=("Main menu", "Insulation", "Copyright", "Contact us"),
    )


def test_a_streamed_page_hidden_until_a_script_swaps_it_in_is_read():
    markdown = markdown_of("streamed-hidden.html")
    assert_reads(
        markdown,
        main=(
            "A starter is flour and water left to ferment",
            "## Signs that it is ready",
            "a spoonful of it floats in water.",
        ),
        chrome=("Recipes", "Tools", "All rights reserved"),
    )


def test_content_hidden_until_a_script_shows_it_is_read_and_a_hidden_notice_is_not():
    markdown = markdown_of("hidden-until-script.html")
    assert_reads(
        markdown,
        main=(
            "A medium-dark roast of washed Colombian and natural Ethiopian beans.",
            "Roasted every Monday and Thursday",
            "- Roast: medium-dark",
        ),
        chrome=("confirm your age", "Subscribe and save", "Shipping", "Returns"),
    )


def test_a_header_inside_main_is_that_section_s_header_not_the_page_banner():
    markdown = markdown_of("header-in-section.html")
    assert_reads(
        markdown,
        main=(
            "Wind, not rain, breaks most tents.",
            "## Pitching for the wind",
            "Silicone-coated fabrics stretch less when wet",
        ),
        chrome=("Trail Journal", "Join the newsletter", "Free delivery", "Privacy"),
    )


def test_a_page_of_short_sections_is_read_whole_and_its_menus_are_not():
    markdown = markdown_of("service-sections.html")
    assert_reads(
        markdown,
        main=(
            "Warmhouse engineers install, service and repair every kind of home heating",
            "## What we do",
            "### Boiler servicing",
            "A yearly check of the burner, the flue and the safety valves",
            "### Smart thermostats",
            "## Questions we are often asked",
            "### Do you cover weekends?",
            "routine visits can be booked for Saturdays.",
        ),
        chrome=("Areas we cover", "Book a visit", "Privacy policy", "Terms and conditions"),
    )


def test_a_listing_of_cards_is_read_whole_with_each_card_s_link_on_its_heading():
    markdown = markdown_of("news-listing.html")
    assert_reads(
        markdown,
        main=(
            "The latest from the valley and the towns around it.",
            "### [River levels fall after a week of flood warnings](https://example.org/news/0)"
            "\n\nWater in the lower valley dropped by half a metre overnight",
            "### [Bus timetable changes from Monday](https://example.org/news/5)",
            "Evening buses on the hospital route will run every twenty minutes",
        ),
        chrome=("Sport", "Weather", "Contact the newsroom", "Advertise with us"),
    )


def test_forum_posts_under_reply_names_are_the_content_and_file_names_are_not_alt_text():
    markdown = markdown_of("forum-replies.html")
    assert_reads(
        markdown,
        main=(
            "I repainted the hull of our dinghy last spring with a one-part enamel",
            "You want a two-part epoxy primer and an antifouling on top of it.",
            "Epoxy primer rolled on below the waterline",
            "That explains it. I will strip it back this weekend",
        ),
        chrome=(
            "IMG_4411",
            "Register",
            "Maintenance",
            "Recent topics",
            "Winter storage",
            "volunteers",
        ),
    )


def test_nested_documentation_sections_are_read_whole_cross_references_and_all():
    markdown = markdown_of("docs-nested-sections.html")
    assert_reads(
        markdown,
        main=(
            "tidewatch reads one file, `tidewatch.toml`, from the working directory.",
            "### Offsets",
            'id = "harbour-east"',
            "### Alarms",
            "## Storage",
            "[Pruning old readings](https://example.org/prune.html)",
        ),
        chrome=("genindex", "previous", "Table of contents", "Quick search", "Copyright"),
    )


def test_category_text_under_a_footer_like_name_is_read_and_the_page_chrome_is_not():
    markdown = markdown_of("collection-seo-copy.html")
    assert_reads(
        markdown,
        main=(
            "## Sneakers made to be worn every day",
            "stitched to a cupsole rather than glued",
            "why the fit you find in one style carries over to the rest.",
        ),
        chrome=("Free shipping", "Women", "Sale", "Find a store", "since 1932", "Add to bag"),
    )


def test_a_product_s_responsive_copy_is_given_once_its_specifications_as_a_table_and_its_reviews_not():
    markdown = markdown_of("product-responsive.html")
    assert_reads(
        markdown,
        main=(
            "A full-length apron cut from heavy, stonewashed European linen",
            "Two deep front pockets take a phone",
            "| Material | 100% linen, 280 g/m² |\n| --- | --- |\n| Length | 92 cm |",
        ),
        chrome=(
            "Free returns",
            "Gifts",
            "Add to cart",
            "Shipping",
            "Contact",
            "Customer reviews",
            "for the bakery",
            "creased badly",
        ),
    )
    assert markdown.count("A full-length apron") == 1


def test_a_consent_dialog_s_prose_is_not_chosen_over_the_page_s_own_listing():
    markdown = markdown_of("consent-dialog.html")
    assert_reads(
        markdown,
        main=("[Field watch, 38 mm](https://example.org/w/0) £420", "Small seconds, 35 mm"),
        chrome=("privacy choices", "Strictly necessary", "advertising partners"),
    )


def test_closed_panels_are_read_and_an_aria_hidden_copy_or_icon_is_not():
    markdown = markdown_of("closed-panels.html")
    assert_reads(
        markdown,
        main=(
            "A stove turns a cold camp into a warm one",
            "## How to choose a camp stove",
            "Canister stoves light at the turn of a valve",
            "Weigh a part-used canister before you leave",
        ),
        chrome=("Open", "Liquid-fuel stoves", "Find a store", "Paddle"),
    )
    assert markdown.count("Members save on every stove") == 1


def test_a_ticker_s_repeated_call_to_action_is_given_once_and_a_table_s_equal_cells_all():
    markdown = markdown_of("ticker.html")
    assert_reads(
        markdown,
        main=(
            "A can has about four seconds on the shelf to be picked up.",
            "## How a project runs",
            "the printer's proofs checked by us before the run.",
            "| 2 | 2 | 2 | 2 | 2 |",
        ),
        chrome=("Work", "Privacy", "© Copperleaf Studio"),
    )
    assert markdown.count("Book a call") == 1


def test_replies_under_comment_names_inside_the_chosen_thread_are_its_content():
    markdown = markdown_of("thread-under-comment-names.html")
    assert_reads(
        markdown,
        main=(
            "A neighbour is selling a twelve-year-old chest freezer for thirty pounds.",
            "I put a plug-in meter on ours",
            "Check the seal before you buy.",
            "Defrost it every spring, keep it full",
        ),
        chrome=("Share on Facebook", "Trending topics", "Forum rules", "Log in"),
    )


def test_a_product_s_reviews_do_not_make_its_page_a_listing():
    markdown = markdown_of("product-reviews-listing.html")
    assert_reads(
        markdown,
        main=(
            "A 28-litre daypack for long days on the hills",
            "through a long side zip, at the bottom",
            "- Back length: 44 to 52 cm",
        ),
        chrome=("Perfect for a weekend", "Zip broke", "Verified buyer", "Returns", "Tents"),
    )


def test_a_listing_that_calls_itself_an_article_is_read_whole():
    markdown = markdown_of("listing-declared-article.html")
    assert_reads(
        markdown,
        main=(
            "Grow a glasshouse full of strange plants with a friend",
            "### [Harbour Lights](https://example.org/app/0)",
            "Run a lighthouse on a stormy coast",
            "### [Kite Weather](https://example.org/app/11)",
            "Release date: Nov 11, 2023",
        ),
        chrome=("Wishlist", "Relaxing", "Legal", "© Driftwood Store"),
    )


def test_an_article_s_comments_do_not_make_its_page_a_listing():
    markdown = markdown_of("article-with-comments.html")
    assert_reads(
        markdown,
        main=(
            "The river path between the mill and the weir reopened on Saturday",
            "will stay open while that work is done.",
        ),
        chrome=("Comments", "I walked that path last week", "Sport", "Contact"),
    )


def test_a_card_s_image_link_is_not_given_when_its_title_links_to_the_same_page():
    markdown = markdown_of("card-image-links.html")
    assert_reads(
        markdown,
        main=(
            "- ### [Trail Runner 4](https://example.org/p/trail-runner-4)\n  £120",
            "Low and light, with studs that bite into wet grass and peat.",
            "[A fitter measuring a runner's foot in the shop](https://example.org/fitting)",
        ),
        chrome=(
            "Grey and orange trail running shoe",
            "Blue running shoe with a waterproof upper",
            "Ridgeline Outfitters home",
            "Find a store",
        ),
    )


def test_a_page_swallowed_by_a_header_left_open_is_read_despite_text_outside_it():
    """An unclosed <header> holds the whole document, and a skip link and a line outside it
    survive the chrome's removal: the page is read again with its chrome because the chrome
    held most of its text, not only when nothing at all survived."""
    markdown = markdown_of("header-left-open.html")
    assert_reads(
        markdown,
        main=(
            "Apple and pear trees are pruned while they are dormant",
            "## What to take out first",
            "Take out no more than a fifth of the canopy in one winter.",
            "silver leaf disease enters through winter cuts",
        ),
        chrome=("Skip to content",),
    )
