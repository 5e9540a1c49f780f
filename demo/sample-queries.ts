// A few labelled queries per built-in catalogue, so "does it find my tools?" has something to score before the
// visitor writes their own, and "would it learn my users' words?" something to learn from: the requests come in pairs,
// a request and the same request in other words (the learning button feeds the first of each pair as a session and
// asks the second), as users ask for the same tools in words of their own. GitHub and npm: written for the
// playground from the tools' names. MetaTool and BFCL: queries of the benchmark's own labelled sets
// (bench/data/<set>/queries.json.gz), unchanged; each with the shortest other query of the set for the same tools, and BFCL's
// two tools the set asks for once at the end.

/** Sample `query → names` lines by catalogue id. */
export const SAMPLE_QUERIES: Readonly<Record<string, string>> = {
  'mcp-github': [
    'which account am I logged in as → get_me',
    'who am I logged in as → get_me',
    'open a pull request from my branch → create_pull_request',
    'open a PR for the fix → create_pull_request',
    'merge the PR once the checks pass → merge_pull_request',
    'ship the PR, the checks are green → merge_pull_request',
    'leave a comment on issue 42 → add_issue_comment',
    'reply on the issue thread that it is fixed → add_issue_comment',
    'find code that calls fetchUser → search_code',
    'where in our repos is parseConfig called → search_code',
    'show me the logs of the failed CI job → get_job_logs',
    'why did CI fail, show the logs → get_job_logs',
    'list open dependabot alerts → list_dependabot_alerts',
    'any vulnerable dependencies flagged by dependabot? → list_dependabot_alerts',
  ].join('\n'),
  'mcp-npm-capture': [
    'take a screenshot of the page → browser_take_screenshot',
    'grab a picture of what the page shows → browser_take_screenshot',
    'go to example.com → browser_navigate',
    'open example.org in the browser → browser_navigate',
    'fill in the login form → browser_fill_form',
    'log in with these credentials on the form → browser_fill_form',
    'save the page as a PDF → browser_pdf_save',
    'export this page to PDF → browser_pdf_save',
    'read the contents of notes.txt → read_text_file, read_file',
    'what does todo.md say → read_text_file, read_file',
    'remember that Alice works at Acme → create_entities, add_observations',
    'remember that Bob lives in Paris → create_entities, add_observations',
    'think through this problem step by step → sequentialthinking',
    'think step by step before you answer → sequentialthinking',
  ].join('\n'),
  metatool: [
    "What's the latest news? → lsongai",
    'Tell me a bedtime story! → lsongai',
    'Can you help me find a lawyer in Tokyo who speaks English? → LawTool',
    'I need to find a lawyer in Japan. → LawTool',
    'The prices of cameras in Australia are outrageous, help me find a more reasonable option. → ProductSearch',
    'Can you find me a black leather jacket? → ProductSearch',
    'Can I find academic research papers on this topic? → ResearchHelper',
    'Can I use Crossref with Chatbot? → ResearchHelper',
  ].join('\n'),
  bfcl: [
    'Find the area of a triangle with a base of 10 units and height of 5 units. → calculate_triangle_area',
    'What is the area of a triangle with base of 10 units and height of 5 units? → calculate_triangle_area',
    'Calculate the compounded interest on an initial deposit of $5000 at an annual interest rate of 3% → calculate_compounded_interest',
    'Calculate the compounded interest for an initial principal of $5000, annual interest rate of 5%, and compounding period of 10 years. → calculate_compounded_interest',
    'Can you find action movies being screened in Sonoma, CA? → Movies_1_FindMovies',
    'I would like to see a movie in Vallejo. → Movies_1_FindMovies',
    'Get historical GDP data for United States from 1960 to 2000. → get_historical_GDP',
    "Get the average user score for the game 'The Legend of Zelda: Breath of the Wild' from GameSpot. → gamespot.getAverageUserScore",
  ].join('\n'),
};
