// A few labelled queries per built-in catalogue, so "does it find my tools?" has something to score before the
// visitor writes their own. GitHub and npm: written for the playground from the tools' names. MetaTool and BFCL:
// queries of the benchmark's own labelled sets (bench/<set>/queries.json), unchanged.

/** Sample `query → names` lines by catalogue id. */
export const SAMPLE_QUERIES: Readonly<Record<string, string>> = {
  'mcp-github': [
    'open a pull request from my branch → create_pull_request',
    'merge the PR once the checks pass → merge_pull_request',
    'leave a comment on issue 42 → add_issue_comment',
    'who am I logged in as → get_me',
    'find code that calls fetchUser → search_code',
    'show me the logs of the failed CI job → get_job_logs',
    'list open dependabot alerts → list_dependabot_alerts',
  ].join('\n'),
  'mcp-npm-capture': [
    'take a screenshot of the page → browser_take_screenshot',
    'go to example.com → browser_navigate',
    'fill in the login form → browser_fill_form',
    'save the page as a PDF → browser_pdf_save',
    'read the contents of notes.txt → read_text_file, read_file',
    'remember that Alice works at Acme → create_entities, add_observations',
    'think through this problem step by step → sequentialthinking',
  ].join('\n'),
  metatool: [
    "What's the latest news? → lsongai",
    'Can you help me find a lawyer in Tokyo who speaks English? → LawTool',
    'The prices of cameras in Australia are outrageous, help me find a more reasonable option. → ProductSearch',
    'Can I find academic research papers on this topic? → ResearchHelper',
  ].join('\n'),
  bfcl: [
    'Find the area of a triangle with a base of 10 units and height of 5 units. → calculate_triangle_area',
    'Get historical GDP data for United States from 1960 to 2000. → get_historical_GDP',
    'Calculate the compounded interest on an initial deposit of $5000 at an annual interest rate of 3% → calculate_compounded_interest',
    "Get the average user score for the game 'The Legend of Zelda: Breath of the Wild' from GameSpot. → gamespot.getAverageUserScore",
    'Can you find action movies being screened in Sonoma, CA? → Movies_1_FindMovies',
  ].join('\n'),
};
